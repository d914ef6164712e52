package com.example.identity.api;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.abuse.ClientAddress;
import com.example.identity.abuse.RateLimits;
import com.example.identity.abuse.RateLimits.Budget;
import com.example.identity.abuse.TooManyRequests;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.apitoken.ApiTokenValidator.TokenCheck;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenOwner;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.dpop.InvalidProof;

/**
 * Authenticates {@code /api/**} requests that carry {@code Authorization: Bearer <token>} (the scheme
 * matched case-insensitively, RFC 6750 §2.1) through the token service. A bearer token that is unknown,
 * revoked, expired or malformed, or more than one {@code Authorization} header, ends the request with 401
 * {@code Token inválido o revocado} and {@code WWW-Authenticate: Bearer error="invalid_token"}. The
 * authentication lives for this request only (a request attribute): it never creates or joins a session.
 *
 * <p>A token bound to a DPoP key (RFC 9449 §7, decisions §28) comes as {@code Authorization: DPoP <token>} with one
 * {@code DPoP} header, a proof of that key for this request ({@link DPoPProofs#verifyResourceRequest}: {@code htm}
 * the method, {@code htu} this path at the issuer, {@code ath} the token's hash, {@code iat} within 60 s, a
 * {@code jti} never seen on any instance). Sent as {@code Bearer}, with another key, or with a proof that fails a
 * check, it is refused with the same 401 body, {@code Token inválido o revocado}: with
 * {@code WWW-Authenticate: Bearer error="invalid_token"} when it came as {@code Bearer}, with a {@code DPoP}
 * challenge ({@code invalid_token} or {@code invalid_dpop_proof}, and the algorithms) when it came as {@code DPoP}.
 * An unbound token sent as {@code DPoP} is refused likewise (it has no key to prove). What it costs: one signature
 * verification and the {@code jti}'s INSERT, after the token's cached lookup and its rate.
 *
 * <p>It also applies the API's limits ({@link RateLimits}), where the token's fate is known. A token that
 * matches nothing (or is malformed, or comes with a second {@code Authorization} header) spends one of the
 * address's {@link Budget#UNKNOWN_TOKENS}; once they are spent, every bearer request of that address gets
 * 429 until they refill. A token that exists but is revoked, expired or of a disabled owner costs nothing:
 * game back ends meet those all day. A valid token draws on its own per-second rate only: no query, no
 * lock, two cache lookups.
 */
class BearerTokenFilter extends OncePerRequestFilter {

    static final String INVALID = "Token inválido o revocado";

    private final ApiTokenValidator tokens;
    private final RateLimits limits;
    private final SecurityContextRepository requestContexts;
    private final DPoPProofs proofs;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    /**
     * @param requestContexts where the authentication is kept for this request only; the chain's
     *     repository consults it first, so nothing downstream mistakes the bearer for a login to be
     *     saved in a session
     */
    BearerTokenFilter(ApiTokenValidator tokens, RateLimits limits, SecurityContextRepository requestContexts,
            DPoPProofs proofs) {
        this.proofs = proofs;
        this.tokens = tokens;
        this.limits = limits;
        this.requestContexts = requestContexts;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<String> headers = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
        Optional<String> bearer = headers.stream().filter(h -> isBearer(h) || isDPoP(h)).findFirst();
        if (bearer.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        String address = ClientAddress.key(request);
        long wait = limits.blockedFor(Budget.UNKNOWN_TOKENS, address);
        if (wait > 0) {
            TooManyRequests.API.write(response, wait);
            return;
        }
        boolean dpop = isDPoP(bearer.get());
        String token = bearer.get().substring(dpop ? 5 : 7).strip();
        TokenCheck check = headers.size() == 1 ? tokens.check(token) : null;
        if (check == null || !check.valid()) {
            if (check == null || !check.known()) {
                limits.recordFailure(Budget.UNKNOWN_TOKENS, address);
            }
            refuse(response, dpop, "invalid_token");
            return;
        }
        TokenOwner owner = check.owner();
        wait = limits.tryRequest("token|" + owner.tokenId());
        if (wait > 0) {
            TooManyRequests.API.write(response, wait);
            return;
        }
        if (dpop || owner.isSenderConstrained()) {
            String refusal = proofRefusal(request, dpop, token, owner);
            if (refusal != null) {
                refuse(response, dpop, refusal);
                return;
            }
        }
        var context = contexts.createEmptyContext();
        context.setAuthentication(new BearerTokenAuthentication(owner));
        contexts.setContext(context);
        requestContexts.saveContext(context, request, response);
        try {
            chain.doFilter(request, response);
        }
        finally {
            contexts.clearContext();
        }
    }

    /**
     * Why a token presented as {@code DPoP}, or bound to a key, is refused; null when it comes as {@code DPoP} with a
     * valid proof of its key. A DPoP challenge's {@code error}: {@code invalid_token} when the token is not one to
     * present so, {@code invalid_dpop_proof} when the proof fails.
     */
    private @Nullable String proofRefusal(HttpServletRequest request, boolean dpop, String token, TokenOwner owner) {
        if (!dpop || !owner.isSenderConstrained()) {
            return "invalid_token";
        }
        try {
            String proof = DPoPProofs.header(request);
            if (proof == null) {
                return "invalid_dpop_proof";
            }
            proofs.verifyResourceRequest(proof, request.getMethod(), request.getRequestURI(), token, owner.dpopJkt());
            return null;
        }
        catch (InvalidProof e) {
            return "invalid_dpop_proof";
        }
    }

    /**
     * 401 {@code Token inválido o revocado} (decisions §1, §28), with the challenge of the scheme the token came in:
     * {@code Bearer error="invalid_token"} as ever, or {@code DPoP error="..."} with the algorithms of the proofs.
     */
    private static void refuse(HttpServletResponse response, boolean dpop, String error) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, dpop
                ? "DPoP error=\"" + error + "\", algs=\"" + DPoPProofs.CHALLENGE_ALGS + "\""
                : "Bearer error=\"invalid_token\"");
        ApiJson.error(response, HttpServletResponse.SC_UNAUTHORIZED, INVALID);
    }

    /** {@code Bearer} followed by a space, in any letter case. */
    static boolean isBearer(String header) {
        return header.length() >= 7 && header.regionMatches(true, 0, "Bearer ", 0, 7);
    }

    /** {@code DPoP} followed by a space, in any letter case (RFC 9449 §7.1). */
    static boolean isDPoP(String header) {
        return header.length() >= 5 && header.regionMatches(true, 0, "DPoP ", 0, 5);
    }

    /** Whether the request presents a token at all, as Bearer or DPoP (such requests need no CSRF token). */
    static boolean presentsBearer(HttpServletRequest request) {
        return Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION)).stream()
                .anyMatch(h -> isBearer(h) || isDPoP(h));
    }
}
