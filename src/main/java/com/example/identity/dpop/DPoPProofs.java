package com.example.identity.dpop;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWK;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.AbstractOAuth2Token;
import org.springframework.security.oauth2.core.ClaimAccessor;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.jwt.DPoPProofContext;
import org.springframework.security.oauth2.jwt.DPoPProofJwtDecoderFactory;
import org.springframework.security.oauth2.jwt.DPoPProofReplayValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtIssuedAtValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;

/**
 * DPoP proofs (RFC 9449 §4.3), checked by Spring Security's {@link DPoPProofJwtDecoderFactory}: a JWT of
 * {@code typ} {@code dpop+jwt}, signed (RSA or EC, {@link #ALGORITHMS}) by the public key in its {@code jwk} header,
 * {@code htm} the request's method, {@code htu} its URL, {@code iat} within {@link #WINDOW} of now; at a protected
 * resource, the key is the one the token is bound to ({@code cnf.jkt}) and {@code ath} the token's hash; and last,
 * once all of that holds, a {@code jti} never accepted before on any instance ({@link SeenProofs}, the one database
 * write). The factory's defaults are replaced in two places: the window is 60 s (Spring's is 30 s) on both the
 * {@code iat} check and the replay check, read from this service's clock; and the replay store is the database,
 * not Spring's per-instance memory.
 *
 * <p>{@code htu} is compared with the URL the client was told to use, this service's issuer and the endpoint's
 * path ({@code identity.issuer}, as in the discovery document), never with the URL of the request as it arrived:
 * behind a load balancer that is an instance's own address, and a {@code Host} header is the caller's to choose
 * (a proof made for another server must not be accepted here because its caller sent that server's name).
 */
@Component
public class DPoPProofs {

    /** The request header that carries the proof (RFC 9449 §4.1), and the authorization scheme of a bound token. */
    public static final String HEADER = "DPoP";
    /** How far {@code iat} may be from now, either way, and how long a {@code jti} is remembered after {@code iat}. */
    public static final Duration WINDOW = Duration.ofSeconds(60);
    /** What the key selector of Spring's factory accepts: RSA and EC signatures (announced in discovery). */
    public static final List<String> ALGORITHMS = List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
            "ES256", "ES384", "ES512");
    /** The {@code algs} parameter of a {@code DPoP} challenge (RFC 9449 §7.1). */
    public static final String CHALLENGE_ALGS = String.join(" ", ALGORITHMS);

    private final String issuer;
    private final DPoPProofJwtDecoderFactory decoders = new DPoPProofJwtDecoderFactory();

    DPoPProofs(IdentityProperties properties, SeenProofs seen, Clock clock) {
        this.issuer = properties.issuerUrl();
        var issuedAt = new JwtIssuedAtValidator(true);
        issuedAt.setClockSkew(WINDOW);
        issuedAt.setClock(clock);
        var replay = new DPoPProofReplayValidator(seen);
        replay.setClockSkew(WINDOW);
        replay.setClock(clock);
        decoders.setJwtValidatorFactory(DPoPProofJwtDecoderFactory.createDefaultJwtValidatorFactory(
                List.of(issuedAt, replay)));
    }

    /** A proof that passed: its key's thumbprint ({@code jkt}, what a token is bound to) and the proof itself. */
    public record Proof(String jkt, Jwt jwt) {
    }

    /**
     * The one {@code DPoP} header of a request, or null when there is none.
     *
     * @throws InvalidProof when there are more than one
     */
    public static @Nullable String header(HttpServletRequest request) {
        List<String> values = Collections.list(request.getHeaders(HEADER));
        if (values.size() > 1) {
            throw new InvalidProof(InvalidProof.REPEATED);
        }
        return values.isEmpty() || values.get(0).isBlank() ? null : values.get(0).strip();
    }

    /**
     * A proof sent with a token request (RFC 9449 §5): {@code POST} to {@code path} at the issuer; no {@code ath}
     * (no access token is presented there).
     */
    public Proof verifyTokenRequest(String proof, String path) {
        return verify(DPoPProofContext.withDPoPProof(proof).method("POST").targetUri(issuer + path).build());
    }

    /**
     * A proof sent with a request to a protected resource (RFC 9449 §7): {@code method} to {@code path} at the
     * issuer, by the key the presented {@code accessToken} is bound to ({@code jkt}), with the token's hash
     * ({@code ath}).
     */
    public Proof verifyResourceRequest(String proof, String method, String path, String accessToken, String jkt) {
        return verify(DPoPProofContext.withDPoPProof(proof).method(method).targetUri(issuer + path)
                .accessToken(new BoundToken(accessToken, jkt)).build());
    }

    private Proof verify(DPoPProofContext context) {
        Jwt jwt;
        try {
            jwt = decoders.createDecoder(context).decode(context.getDPoPProof());
        }
        catch (JwtValidationException e) {
            throw new InvalidProof(reason(e.getErrors().isEmpty() ? null : e.getErrors().iterator().next()));
        }
        catch (JwtException e) {
            throw new InvalidProof(InvalidProof.MALFORMED);
        }
        return new Proof(thumbprint(jwt), jwt);
    }

    /** The SHA-256 thumbprint (RFC 7638) of the key in a verified proof's {@code jwk} header. */
    public static String thumbprint(Jwt proof) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> jwk = (Map<String, Object>) proof.getHeaders().get("jwk");
            return JWK.parse(jwk).computeThumbprint().toString();
        }
        catch (ParseException | JOSEException | RuntimeException e) {
            throw new InvalidProof(InvalidProof.MALFORMED);
        }
    }

    /** Which of Spring's validators refused the proof, in Spanish. */
    private static String reason(@Nullable OAuth2Error error) {
        String description = error == null || error.getDescription() == null ? "" : error.getDescription();
        if (description.startsWith("The htm")) {
            return InvalidProof.METHOD;
        }
        if (description.startsWith("The htu")) {
            return InvalidProof.TARGET;
        }
        if (description.startsWith("iat")) {
            return InvalidProof.ISSUED_AT;
        }
        if (description.startsWith("jkt")) {
            return InvalidProof.OTHER_KEY;
        }
        if (description.startsWith("ath")) {
            return InvalidProof.ACCESS_TOKEN_HASH;
        }
        if (description.startsWith("jti claim is required")) {
            return InvalidProof.NO_JTI;
        }
        if (description.startsWith("jti")) {
            return InvalidProof.REPLAYED;
        }
        return InvalidProof.MALFORMED;
    }

    /**
     * The presented access token as Spring's validators read it: its value (for {@code ath}) and the thumbprint of
     * the key it is bound to, as the claim {@code cnf.jkt} (RFC 9449 §6).
     */
    private static final class BoundToken extends AbstractOAuth2Token implements ClaimAccessor {

        private final Map<String, Object> claims;

        BoundToken(String value, String jkt) {
            super(value, (Instant) null, (Instant) null);
            this.claims = Map.of("cnf", Map.of("jkt", jkt));
        }

        @Override
        public Map<String, Object> getClaims() {
            return claims;
        }
    }
}
