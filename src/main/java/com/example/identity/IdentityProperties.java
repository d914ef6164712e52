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
 * @param refreshToken settings of the refresh tokens issued by the token endpoint
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
 * @param oneTimePassword the passwords an admin sets for others
 * @param retention how long the audit trail, ended tokens and spent codes are kept
 * @param passwordHashing the bound on logins waiting for a password hash
 */
@Validated
@ConfigurationProperties("identity")
public record IdentityProperties(
        @NotNull
        @Pattern(regexp = ISSUER_PATTERN, message = ISSUER_MESSAGE)
        @DefaultValue("http://localhost:8080") String issuer,
        @Valid @DefaultValue AuthorizationCode authorizationCode,
        @Valid @DefaultValue AccessToken accessToken,
        @Valid @DefaultValue RefreshToken refreshToken,
        @Valid @DefaultValue SigningKey signingKey,
        @Nullable Boolean demoData,
        @Valid @DefaultValue BootstrapAdmin bootstrapAdmin,
        @Valid @DefaultValue Login login,
        @Valid @DefaultValue RateLimit rateLimit,
        @NotNull @DefaultValue List<@NotNull @Pattern(regexp = PROXY_PATTERN, message = PROXY_MESSAGE) String> trustedProxies,
        @Valid @DefaultValue OneTimePassword oneTimePassword,
        @Valid @DefaultValue Retention retention,
        @Valid @DefaultValue PasswordHashing passwordHashing) {

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
     * @param ttl lifetime of a refresh token (decisions §12.4), counted from its issue: each use rotates it
     *     and the new one lives this long again, so an application used at least this often stays logged
     *     in; one that is not, logs in again. Default 30 days; between 1 hour and 365 days.
     */
    public record RefreshToken(
            @NotNull
            @DurationMin(hours = 1, message = "must be between 1h and 365d")
            @DurationMax(days = 365, message = "must be between 1h and 365d")
            @DefaultValue("30d") Duration ttl) {
    }

    /**
     * @param location a Spring resource ({@code file:/etc/identity/signing.pem}, {@code classpath:...}) of a
     *     PEM RSA private key. Unset: a key is generated on first start and kept in the database, so every
     *     instance and every restart signs with the same key.
     * @param rotationDelay how long a key made by a rotation is published in the JWKS before it starts
     *     signing, so that relying parties that cache the JWKS have fetched it before they meet it in an
     *     {@code id_token}. Default 10 minutes; 0 to 1 day. (The key it replaces stays published until
     *     the last {@code id_token} it signed has expired: 30 minutes plus 5 of clock skew.)
     * @param nativeSignatures whether RS256 signatures go through the Amazon Corretto Crypto Provider's native
     *     RSA ({@code crypto/NativeRsaSignatures}), about four times as fast as the JDK's; default true. Where
     *     its native library does not load (it is built for Linux on x86-64), the JDK signs anyway.
     */
    public record SigningKey(
            @Nullable String location,
            @NotNull
            @DurationMin(seconds = 0, message = "must be between 0s and 1d")
            @DurationMax(days = 1, message = "must be between 0s and 1d")
            @DefaultValue("10m") Duration rotationDelay,
            @DefaultValue("true") boolean nativeSignatures) {

        @org.springframework.boot.context.properties.bind.ConstructorBinding
        public SigningKey {
        }

        /** A location with the default rotation delay. */
        public SigningKey(@Nullable String location) {
            this(location, Duration.ofMinutes(10), true);
        }
    }

    /**
     * Brute-force protection of {@code /login/} (decisions §3), at three levels (see {@code LoginThrottle}):
     * the pair (e-mail, source address) is locked; the account as a whole and the address as a whole only
     * meet growing delays past a large budget, so neither a shared address nor a known e-mail is a lever
     * to lock other people out. The pages say so without revealing whether the account exists.
     * <p>
     * The arithmetic with the defaults: one address gets at most 5 guesses at one account per 15 minutes
     * (480 a day). Any number of addresses together get the account's budget (100 at once, refilled at
     * 100 a day) plus one guess per {@code max-delay} (96 a day at 15 minutes): about 300 on the first
     * day, under 200 a day after that, about 72,000 a year, against passwords of at least 12 characters
     * ({@code LoginThrottleTest} counts them). A guesser spraying over many accounts from one address
     * gets 100 per 15 minutes (each account still counts its own), plus 4 an hour.
     *
     * @param maxFailuresPerPair failed logins of one e-mail address (known or not) from one source address
     *     within {@code lockDuration} before that pair is locked; default 5 (OWASP ASVS 5.0 6.3.1 asks for
     *     a limit; 5 in 15 minutes is common practice). The owner on another address is not locked.
     * @param maxFailuresPerAccount failed logins of one e-mail address from every address together, refilled
     *     continuously over {@code accountWindow}, before growing delays start for it; default 100 (NIST SP
     *     800-63B §5.2.2 allows at most 100 consecutive failures), a day
     * @param maxFailuresPerAddress failed logins from one source address on every account together, refilled
     *     continuously over {@code addressWindow}, before growing delays start for it; default 100 in 15
     *     minutes, far above what a carrier-grade NAT, a school or an office of people mistyping produces
     * @param lockDuration how long a pair lock lasts, and the window its failures are counted in; default 15m
     * @param delayBase growing delays: after the 2nd failure of a pair, and after each failure past an
     *     account's or an address's budget, the next attempt is refused until {@code delayBase * 2^n} has
     *     passed (1 s, 2 s, 4 s ...); default 1s, 0 turns every delay off
     * @param maxDelay the longest such delay; default 15m
     * @param accountWindow the time over which an account's budget refills; default 24h
     * @param addressWindow the time over which an address's budget refills; default 15m
     * @param knownAddressTtl a successful login from an address makes it a known address of that account for
     *     this long: the account's and the address's delays do not apply to that pair (only the pair's own
     *     lock does); default 30 days
     */
    public record Login(
            @Min(1) @DefaultValue("5") int maxFailuresPerPair,
            @Min(1) @DefaultValue("100") int maxFailuresPerAccount,
            @Min(1) @DefaultValue("100") int maxFailuresPerAddress,
            @NotNull @DurationMin(seconds = 1) @DefaultValue("15m") Duration lockDuration,
            @NotNull @DefaultValue("1s") Duration delayBase,
            @NotNull @DurationMin(seconds = 1) @DefaultValue("15m") Duration maxDelay,
            @NotNull @DurationMin(seconds = 1) @DefaultValue("24h") Duration accountWindow,
            @NotNull @DurationMin(seconds = 1) @DefaultValue("15m") Duration addressWindow,
            @NotNull @DurationMin(seconds = 1) @DefaultValue("30d") Duration knownAddressTtl) {
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
     * @param userCodeFailures wrong user codes typed at {@code /activar} (device flow, decisions §16)
     *     allowed per source address and, separately, per account, over 10 minutes, then 429 with
     *     {@code Retry-After}. Default 10: a player who mistypes a few times never meets it, and a guesser
     *     gets at most 20 tries per address in a code's 10-minute life against 20^8 codes (docs/native-and-device.md,
     *     "Device flow")
     * @param recoveryRequests password recovery requests at {@code /login/recuperar} allowed per source
     *     address over 15 minutes, then 429 with {@code Retry-After}; default 5. Each account is also sent at
     *     most 3 links an hour, whoever asks (recovery/PasswordRecovery)
     */
    public record RateLimit(
            @DefaultValue("true") boolean enabled,
            @Min(1) @DefaultValue("200") int failuresPerMinute,
            @Min(1) @DefaultValue("600") int unknownTokensPerMinute,
            @Min(1) @DefaultValue("5000") int requestsPerSecond,
            @Min(1) @DefaultValue("10") int userCodeFailures,
            @Min(1) @DefaultValue("5") int recoveryRequests) {
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

    /**
     * @param ttl how long a one-time password set by an admin (a new account, or a password reset) can be
     *     used to log in; after that the login fails as a wrong password would, and an admin must reset it.
     *     Default 7 days; between 1 hour and 90 days
     */
    public record OneTimePassword(
            @NotNull
            @DurationMin(hours = 1, message = "must be between 1h and 90d")
            @DurationMax(days = 90, message = "must be between 1h and 90d")
            @DefaultValue("7d") Duration ttl) {
    }

    /**
     * What is purged, and when, by one job that runs every hour ({@code retention/RetentionJob}).
     *
     * @param audit audit rows older than this are deleted; default 365 days (a year of history for
     *     investigations, then gone)
     * @param tokens API tokens revoked or expired longer ago than this are deleted; default 30 days (they
     *     stay visible, revoked, in the dashboards for a month)
     * @param codes authorizations whose code expired longer ago than this are deleted; default 1 day, at
     *     least 1 day: a replayed code is recognised (and revokes its tokens) as long as those tokens live,
     *     and an access token lives at most a day
     */
    public record Retention(
            @NotNull @DurationMin(days = 1) @DefaultValue("365d") Duration audit,
            @NotNull @DurationMin(days = 1) @DefaultValue("30d") Duration tokens,
            @NotNull @DurationMin(days = 1, message = "must be at least 1d (the longest access token lifetime)")
            @DefaultValue("1d") Duration codes) {
    }

    /**
     * @param maxQueued how many password hashes may wait for a core before further logins are answered
     *     503 "try again" at once; 0 (the default) means as many as the cores hash in about 2 seconds,
     *     measured with one hash at start. Past that, waiting only makes every login slower.
     */
    public record PasswordHashing(@Min(0) @DefaultValue("0") int maxQueued) {
    }
}
