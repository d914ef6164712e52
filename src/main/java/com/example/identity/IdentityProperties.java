package com.example.identity;

import java.time.Duration;

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
        @Valid @DefaultValue RateLimit rateLimit) {

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
     * @param rotationDelay how long a key made by a rotation is published in the JWKS before it starts
     *     signing, so that relying parties that cache the JWKS have fetched it before they meet it in an
     *     {@code id_token}. Default 10 minutes; 0 to 1 day. (The key it replaces stays published until
     *     the last {@code id_token} it signed has expired: 30 minutes plus 5 of clock skew.)
     */
    public record SigningKey(
            @Nullable String location,
            @NotNull
            @DurationMin(seconds = 0, message = "must be between 0s and 1d")
            @DurationMax(days = 1, message = "must be between 0s and 1d")
            @DefaultValue("10m") Duration rotationDelay) {

        @org.springframework.boot.context.properties.bind.ConstructorBinding
        public SigningKey {
        }

        /** A location with the default rotation delay. */
        public SigningKey(@Nullable String location) {
            this(location, Duration.ofMinutes(10));
        }
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

    /**
     * Limits on {@code /oauth/token.php} and {@code /api/**}, in memory (per instance), answered with
     * 429 and {@code Retry-After}. They bite on abuse, not on success: failed requests (wrong secrets,
     * unknown codes, bad tokens) draw on a small per-address and per-client budget; successful traffic
     * only on a generous per-client / per-token rate.
     *
     * @param enabled turn every limit off (for example behind a gateway that already limits); default on
     * @param failuresPerMinute failed requests allowed per source address and per client id each minute;
     *     default 20
     * @param requestsPerSecond requests allowed per client id (token endpoint) and per token (API) each
     *     second, success or not; default 5000, far above what one legitimate client needs
     */
    public record RateLimit(
            @DefaultValue("true") boolean enabled,
            @Min(1) @DefaultValue("20") int failuresPerMinute,
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
