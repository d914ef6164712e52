package com.example.identity.oauth.userinfo;

import java.util.Collections;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.authorization.oidc.authentication.OidcUserInfoAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationConverter;

import com.example.identity.abuse.ClientAddress;
import com.example.identity.abuse.RateLimits;
import com.example.identity.abuse.RateLimits.Budget;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.apitoken.ApiTokenValidator.TokenCheck;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenOwner;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.dpop.InvalidProof;
import com.example.identity.web.RequestId;

/**
 * Step 1 of {@code /oauth/userinfo.php}, plugged into Spring Authorization Server's UserInfo endpoint as
 * its request converter: finds the access token (RFC 6750 §2.1 {@code Authorization: Bearer}, or §2.2 the
 * form field {@code access_token} of a POST; exactly one of the two, never the query string), checks it
 * with the token service (the cached lookup of {@code /api/userinfo.php}: a valid token costs no database
 * round trip) and applies the same budgets as {@code /api/**}: an address that keeps presenting unknown
 * tokens is blocked for a while, and each token has its request rate. What it returns is the valid token's
 * owner, for {@link UserInfoClaims}.
 *
 * <p>A token bound to a DPoP key (RFC 9449 §7, decisions §28) comes as {@code Authorization: DPoP <token>} with a
 * proof of that key for this request in the {@code DPoP} header ({@link DPoPProofs#verifyResourceRequest}); as
 * {@code Bearer}, in the body, with another key or a failing proof it is refused: 401 with a {@code DPoP} challenge,
 * {@code invalid_token} (presented the wrong way) or {@code invalid_dpop_proof} (the proof), and a Spanish
 * description. So is an unbound token presented as {@code DPoP}.
 */
final class UserInfoRequests implements AuthenticationConverter {

    static final String ACCESS_TOKEN = "access_token";

    private static final Logger log = LoggerFactory.getLogger(UserInfoRequests.class);

    private final ApiTokenValidator tokens;
    private final RateLimits limits;
    private final DPoPProofs proofs;

    UserInfoRequests(ApiTokenValidator tokens, RateLimits limits, DPoPProofs proofs) {
        this.tokens = tokens;
        this.limits = limits;
        this.proofs = proofs;
    }

    /** The token of a request, and whether it came as {@code Authorization: DPoP}. */
    private record Presented(String token, boolean dpop) {
    }

    @Override
    public Authentication convert(HttpServletRequest request) {
        Presented presented = presentedToken(request);
        String address = ClientAddress.key(request);
        long wait = limits.blockedFor(Budget.UNKNOWN_TOKENS, address);
        if (wait > 0) {
            throw BearerTokenError.tooManyRequests(wait);
        }
        TokenCheck check;
        try {
            check = tokens.check(presented.token());
        }
        catch (RuntimeException e) {
            String requestId = RequestId.of(request);
            log.error("Token lookup failed at the UserInfo endpoint (request id {})", requestId, e);
            throw BearerTokenError.serverError(requestId);
        }
        if (!check.valid()) {
            if (!check.known()) {
                limits.recordFailure(Budget.UNKNOWN_TOKENS, address);
            }
            throw BearerTokenError.invalid();
        }
        wait = limits.tryRequest("token|" + check.owner().tokenId());
        if (wait > 0) {
            throw BearerTokenError.tooManyRequests(wait);
        }
        if (presented.dpop() || check.owner().isSenderConstrained()) {
            proofCheck(request, presented, check.owner());
        }
        return new OidcUserInfoAuthenticationToken(new BearerTokenAuthentication(check.owner()));
    }

    /** A DPoP-bound token with a valid proof of its key for this request; nothing else presented as {@code DPoP}. */
    private void proofCheck(HttpServletRequest request, Presented presented, TokenOwner owner) {
        if (!owner.isSenderConstrained()) {
            throw BearerTokenError.dpop("invalid_token", "Este token no esta ligado a una clave DPoP: envialo como Bearer",
                    DPoPProofs.CHALLENGE_ALGS);
        }
        if (!presented.dpop()) {
            throw BearerTokenError.dpop("invalid_token", InvalidProof.MISSING, DPoPProofs.CHALLENGE_ALGS);
        }
        try {
            String proof = DPoPProofs.header(request);
            if (proof == null) {
                throw new InvalidProof(InvalidProof.MISSING);
            }
            proofs.verifyResourceRequest(proof, request.getMethod(), request.getRequestURI(), presented.token(),
                    owner.dpopJkt());
        }
        catch (InvalidProof e) {
            throw BearerTokenError.dpop("invalid_dpop_proof", e.getMessage(), DPoPProofs.CHALLENGE_ALGS);
        }
        catch (RuntimeException e) {
            // the proof's jti could not be recorded (the database): no proof is accepted without it
            String requestId = RequestId.of(request);
            log.error("Recording a DPoP proof failed at the UserInfo endpoint (request id {})", requestId, e);
            throw BearerTokenError.serverError(requestId);
        }
    }

    /** The one token the request presents; refuses none, two, or one in the query string. */
    private static Presented presentedToken(HttpServletRequest request) {
        List<String> headers = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
        List<String> bearers = headers.stream().filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7)
                || h.regionMatches(true, 0, "DPoP ", 0, 5)).toList();
        String query = request.getQueryString();
        if (query != null && (query.startsWith(ACCESS_TOKEN + "=") || query.contains("&" + ACCESS_TOKEN + "="))) {
            throw BearerTokenError.invalidRequest("El token de acceso va en la cabecera Authorization o en el cuerpo "
                    + "de un POST, nunca en la URL");
        }
        String[] inBody = isForm(request) ? request.getParameterValues(ACCESS_TOKEN) : null;
        int ways = bearers.size() + (inBody == null ? 0 : inBody.length);
        if (ways > 1 || headers.size() > 1) {
            throw BearerTokenError.invalidRequest("El token de acceso se envia de una sola forma, una sola vez");
        }
        if (ways == 0) {
            throw BearerTokenError.missing();
        }
        if (bearers.isEmpty()) {
            return new Presented(inBody[0], false);
        }
        boolean dpop = bearers.get(0).regionMatches(true, 0, "DPoP ", 0, 5);
        return new Presented(bearers.get(0).substring(dpop ? 5 : 7).strip(), dpop);
    }

    private static boolean isForm(HttpServletRequest request) {
        if (!"POST".equals(request.getMethod()) || request.getContentType() == null) {
            return false;
        }
        try {
            return MediaType.APPLICATION_FORM_URLENCODED.includes(MediaType.parseMediaType(request.getContentType()));
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }
}
