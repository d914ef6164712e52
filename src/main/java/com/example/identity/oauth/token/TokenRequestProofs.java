package com.example.identity.oauth.token;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.web.authentication.AuthenticationConverter;

import com.example.identity.Endpoints;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.dpop.DPoPProofs.Proof;
import com.example.identity.dpop.InvalidProof;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.error.TokenError;

/**
 * The DPoP step of the grants that issue a player's tokens (RFC 9449 §5, decisions §28): the code exchange, the
 * refresh, the device poll and the ticket exchange. A request may carry one {@code DPoP} header; Spring
 * Authorization Server's converters (the code's, the token exchange's) put it among the grant's additional
 * parameters as {@value #PROOF}, and {@link #parameters} does the same for this service's own converters (refresh,
 * device code). {@link #verify} checks it ({@link DPoPProofs}: signature, {@code htm} {@code POST}, {@code htu} the
 * token endpoint at the issuer, {@code iat}, a {@code jti} never seen on any instance) once the legacy checks of
 * the client are done, and refuses a request without one when the application requires DPoP
 * ({@code dpop_obligatorio}). Every refusal is {@code invalid_dpop_proof}, RFC 6749 §5.2's shape with a Spanish
 * description. Spring's own verification ({@code DPoPProofVerifier}, package-private in its providers) is not used:
 * this service's providers are its own, and Spring's keeps the seen {@code jti}s per instance (D45).
 *
 * <p>Also a converter, first of the token endpoint's: it only refuses a request with more than one {@code DPoP}
 * header, in the same shape, before any grant's converter reads it.
 */
public final class TokenRequestProofs implements AuthenticationConverter {

    /** The additional parameter that carries the proof (Spring Authorization Server's name for it). */
    static final String PROOF = "dpop_proof";

    private final DPoPProofs proofs;

    public TokenRequestProofs(DPoPProofs proofs) {
        this.proofs = proofs;
    }

    /** Never converts: refuses a repeated {@code DPoP} header, then leaves the request to the grants' converters. */
    @Override
    public @Nullable Authentication convert(HttpServletRequest request) {
        parameters(request);
        return null;
    }

    /** The request's proof as a grant's additional parameter ({@value #PROOF}); empty without a {@code DPoP} header. */
    static Map<String, Object> parameters(HttpServletRequest request) {
        String proof;
        try {
            proof = DPoPProofs.header(request);
        }
        catch (InvalidProof e) {
            throw StandardError.invalidRequest(e.getMessage());
        }
        return proof == null ? Map.of() : Map.of(PROOF, proof);
    }

    /**
     * The grant request's verified proof, or null when it carries none and its application does not require one.
     *
     * @throws StandardError {@code invalid_dpop_proof}: a proof that fails a check, or none where it is required
     */
    @Nullable Proof verify(Map<String, Object> additionalParameters, RegisteredClient client) {
        if (!(additionalParameters.get(PROOF) instanceof String proof) || proof.isBlank()) {
            if (DatabaseRegisteredClientRepository.requiresDPoP(client)) {
                throw StandardError.invalidDPoPProof(InvalidProof.REQUIRED);
            }
            return null;
        }
        try {
            return proofs.verifyTokenRequest(proof, Endpoints.TOKEN);
        }
        catch (InvalidProof e) {
            throw StandardError.invalidDPoPProof(e.getMessage());
        }
        catch (RuntimeException e) {
            throw TokenError.internal(e); // the jti's INSERT failed: a 500 that names only the request id
        }
    }

    /**
     * A token bound to a key ({@code jkt}: a public client's refresh token, a player's access token at the ticket
     * exchange) is presented only with a proof of that key: else {@code invalid_dpop_proof}.
     */
    static void sameKey(@Nullable String jkt, @Nullable Proof proof) {
        if (jkt != null && (proof == null || !jkt.equals(proof.jkt()))) {
            throw StandardError.invalidDPoPProof(proof == null ? InvalidProof.MISSING : InvalidProof.OTHER_KEY);
        }
    }
}
