package com.example.identity.oauth.authorize;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Reads an {@code id_token_hint} (OIDC Core §3.1.2.1): an id_token this server issued, so signed with one of
 * its published keys (RS256) and with this issuer. Its expiry is not checked: a hint is usually an old
 * id_token. Only its {@code sub} is used, to compare with the logged-in user; nothing else in it is trusted.
 */
public class IdTokenHints {

    /** Longest hint read; an id_token of this server is well under 2 KB. */
    static final int MAX_LENGTH = 8192;

    private final JwtDecoder decoder;

    public IdTokenHints(JWKSource<SecurityContext> keys, String issuer) {
        NimbusJwtDecoder nimbus = NimbusJwtDecoder.withJwkSource(keys).jwsAlgorithm(SignatureAlgorithm.RS256).build();
        nimbus.setJwtValidator(new JwtIssuerValidator(issuer));
        this.decoder = nimbus;
    }

    /** The {@code sub} of a valid hint, or null when {@code hint} is not an id_token of this server. */
    @Nullable String subjectOf(String hint) {
        Jwt token = read(hint);
        return token == null ? null : token.getSubject();
    }

    /** A valid hint with a subject (its claims: {@code sub}, {@code aud}, ...), or null. */
    public @Nullable Jwt read(String hint) {
        if (hint.length() > MAX_LENGTH) {
            return null;
        }
        try {
            Jwt token = decoder.decode(hint);
            return token.getSubject() == null || token.getSubject().isEmpty() ? null : token;
        }
        catch (JwtException | IllegalArgumentException e) {
            return null;
        }
    }
}
