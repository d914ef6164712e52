package com.example.identity;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every {@code identity.*} setting, with its default and the reason for it. Bound and validated at
 * start: an invalid value stops the application with the property's name in the message.
 *
 * @param issuer the public base URL of this service ({@code {base_url}} in the specification), used as
 *     the {@code iss} of every {@code id_token} and as the prefix of every endpoint in the discovery
 *     document. Absolute http(s) URL without a trailing slash, query or fragment.
 * @param authorizationCode authorization code settings
 * @param accessToken settings of the access tokens issued by the token endpoint
 * @param signingKey where the RS256 signing key comes from
 * @param demoData create the demo accounts and application of decisions §9 on an empty database;
 *     unset means "yes on the embedded H2 database, no on anything else"
 * @param bootstrapAdmin the first administrator of an empty database without demo data
 * @param login brute-force protection of the login form
 * @param rateLimit request limits of the token endpoint and the API
 * @param trustedProxies the reverse proxies whose {@code X-Forwarded-For} and {@code X-Forwarded-Proto} are
 *     believed, as IPv4 or IPv6 addresses or CIDR blocks ({@code 10.0.0.0/8}, {@code 2001:db8::/32},
 *     {@code 192.0.2.7}); {@code IDENTITY_TRUSTED_PROXIES=10.0.0.0/8,192.168.0.0/16}. Default: none, so a
 *     client cannot pick its own address (and with it a fresh rate-limit budget or another address in the
 *     audit trail) by sending the header. Only a request whose peer is one of these has its headers read,
 *     and every hop of {@code X-Forwarded-For} that is one of these is skipped from the right: the first
 *     other address is the client. Behind a TLS-terminating proxy, list it here, or the service sees
 *     every request as the proxy's and over plain HTTP (no HSTS, no {@code Secure} cookie).
 */
@Validated
@ConfigurationProperties("identity")
public record IdentityProperties(
        @NotNull
        @Pattern(regexp = ISSUER_PATTERN, message = ISSUER_MESSAGE)
        @DefaultValue("http://localhost:8080") String issuer,
        @Valid @DefaultValue AuthorizationCode authorizationCode,
        @Valid @DefaultValue AccessToken accessToken,
        @Valid @DefaultValue SigningKey signingKey,
        @Nullable Boolean demoData,
        @Valid @DefaultValue BootstrapAdmin bootstrapAdmin,
        @Valid @DefaultValue Login login,
        @Valid @DefaultValue RateLimit rateLimit,
        @NotNull @DefaultValue List<@NotNull @Pattern(regexp = PROXY_PATTERN, message = PROXY_MESSAGE) String> trustedProxies) {

    /**
     * An IPv4 address (each octet 0-255) with an optional prefix 0-32, or an IPv6 address (hex digits and
     * colons, optionally an embedded IPv4 tail) with an optional prefix 0-128. Checked strictly here so
     * that nothing reaches Tomcat's parser that it could mistake for a host name to look up.
     */
    static final String PROXY_PATTERN = "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)"
            + "(/(3[0-2]|[12]?\\d))?"
            + "|[0-9A-Fa-f]{0,4}(:[0-9A-Fa-f]{0,4}){2,7}(:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d))?"
            + "(/(12[0-8]|1[01]\\d|[1-9]?\\d))?";
    static final String PROXY_MESSAGE = "must be an IPv4 or IPv6 address or CIDR block, such as 10.0.0.0/8 or 2001:db8::/32";

    /** http(s), a host with an optional port, an optional path; no trailing slash, query, fragment or space. */
    static final String ISSUER_PATTERN = "https?://[A-Za-z0-9.\\-\\[\\]:]+(/[^/?#\\s]+)*";
    static final String ISSUER_MESSAGE =
            "must be an absolute http or https URL without a trailing slash, query or fragment";

    /** The issuer exactly as it appears in tokens and in the discovery document. */
    public String issuerUrl() {
        return issuer;
    }

    /**
     * @param ttl lifetime of an authorization code. Default 10 minutes: the most that RFC 6749 §4.1.2 and
     *     OWASP ASVS 10.4.3 allow (the specification's example is 15); clients exchange codes within
     *     seconds. Between 1 second and 10 minutes.
     */
    public record AuthorizationCode(
            @NotNull
            @DurationMin(seconds = 1, message = "must be between 1s and 10m (RFC 6749 §4.1.2)")
            @DurationMax(minutes = 10, message = "must be between 1s and 10m (RFC 6749 §4.1.2)")
            @DefaultValue("10m") Duration ttl) {
    }

    /**
     * @param ttl lifetime of an access token issued by {@code /oauth/token.php}, sent as {@code expires_in}.
     *     Default 1 hour (the specification shows 3600). Between 1 minute and 1 day.
     */
    public record AccessToken(
            @NotNull
            @DurationMin(minutes = 1, message = "must be between 1m and 1d")
            @DurationMax(days = 1, message = "must be between 1m and 1d")
            @DefaultValue("1h") Duration ttl) {
    }

    /**
     * @param location a Spring resource ({@code file:/etc/identity/signing.pem}, {@code classpath:...}) of a
     *     PEM RSA private key. Unset: a key is generated on first start and kept in the database, so every
     *     instance and every restart signs with the same key.
     */
    public record SigningKey(@Nullable String location) {
    }

    /**
     * Brute-force protection of {@code /login/} (decisions §3): failures slow an account down, then lock
     * it and the source address for a while; the page says so without revealing whether the account
     * exists.
     *
     * @param maxFailuresPerAccount failed logins of one e-mail address (known or not) before it is locked;
     *     default 5 (OWASP ASVS 5.0 6.3.1 asks for a limit; 5 in 15 minutes is common practice)
     * @param maxFailuresPerAddress failed logins from one source address before it is locked; default 20,
     *     higher because offices and mobile networks share addresses
     * @param lockDuration how long a lock lasts, and the window failures are counted in; default 15m
     * @param delayBase growing delay: after the 2nd failure of an account, the next attempt is refused
     *     until {@code delayBase * 2^(failures-2)} has passed (1 s, 2 s, 4 s ...); default 1s, 0 turns it off
     */
    public record Login(
            @Min(1) @DefaultValue("5") int maxFailuresPerAccount,
            @Min(1) @DefaultValue("20") int maxFailuresPerAddress,
            @NotNull @DurationMin(seconds = 1) @DefaultValue("15m") Duration lockDuration,
            @NotNull @DefaultValue("1s") Duration delayBase) {
    }

    /** The trusted proxies as CIDR blocks: a bare address becomes {@code /32} or {@code /128}. */
    public List<String> trustedProxyBlocks() {
        return trustedProxies.stream().map(String::strip)
                .map(p -> p.indexOf('/') >= 0 ? p : p + (p.indexOf(':') >= 0 ? "/128" : "/32"))
                .toList();
    }

    /**
     * Limits on {@code /oauth/token.php} and {@code /api/**}, in memory (per instance), answered with
     * 429 and {@code Retry-After}. They bite on guessing and floods, never on a busy legitimate caller:
     * codes, tokens and secrets carry 256 bits, so nobody guesses them, and what a client does after it
     * proved its secret is its own business. Each address is keyed by {@code abuse/ClientAddress} (IPv6
     * by its /64, {@code X-Forwarded-For} only from {@code identity.trusted-proxies}).
     *
     * @param enabled turn every limit off (for example behind a gateway that already limits); default on
     * @param failuresPerMinute token endpoint requests refused <em>before</em> the client authenticated
     *     (unknown client, wrong secret, malformed request) allowed per source address each minute, then
     *     429. Default 200: a partner's test run (a few dozen deliberate errors) never meets it, and a
     *     guesser gets 288,000 tries a day per address against 2^256 secrets. A failure after the client
     *     authenticated (unknown, used or expired code, wrong {@code redirect_uri} or {@code code_verifier})
     *     costs no budget but one request of that client's {@code requestsPerSecond}.
     * @param unknownTokensPerMinute bearer tokens at {@code /api/**} that match no token at all (or are
     *     malformed) allowed per source address each minute, then 429 for that address's bearer requests.
     *     Default 600 (10 a second): a game back end validates its players' tokens from one address,
     *     and expired, revoked or disabled-owner tokens, which exist, cost nothing here; a repeated
     *     unknown token is answered from a bounded negative cache without a database query.
     * @param requestsPerSecond requests allowed per authenticated client (token endpoint) and per valid
     *     token (API) each second, success or not; default 5000, far above what one legitimate client
     *     needs, and the only cost of a failure after authentication
     */
    public record RateLimit(
            @DefaultValue("true") boolean enabled,
            @Min(1) @DefaultValue("200") int failuresPerMinute,
            @Min(1) @DefaultValue("600") int unknownTokensPerMinute,
            @Min(1) @DefaultValue("5000") int requestsPerSecond) {
    }

    /**
     * @param email e-mail of the first administrator, created on an empty database without demo data
     *     ({@code IDENTITY_BOOTSTRAP_ADMIN_EMAIL})
     * @param password its password ({@code IDENTITY_BOOTSTRAP_ADMIN_PASSWORD}); unset: a random one is
     *     generated and printed once in the log
     */
    public record BootstrapAdmin(@Nullable @Email String email, @Nullable String password) {
        @AssertTrue(message = "must be at least 12 characters")
        public boolean isPassword() {
            return password == null || password.isEmpty() || password.length() >= 12;
        }
    }
}
