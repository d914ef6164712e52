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
import com.example.identity.web.RequestId;

/**
 * Step 1 of {@code /oauth/userinfo.php}, plugged into Spring Authorization Server's UserInfo endpoint as
 * its request converter: finds the access token (RFC 6750 §2.1 {@code Authorization: Bearer}, or §2.2 the
 * form field {@code access_token} of a POST; exactly one of the two, never the query string), checks it
 * with the token service (the cached lookup of {@code /api/userinfo.php}: a valid token costs no database
 * round trip) and applies the same budgets as {@code /api/**}: an address that keeps presenting unknown
 * tokens is blocked for a while, and each token has its request rate. What it returns is the valid token's
 * owner, for {@link UserInfoClaims}.
 */
final class UserInfoRequests implements AuthenticationConverter {

    static final String ACCESS_TOKEN = "access_token";

    private static final Logger log = LoggerFactory.getLogger(UserInfoRequests.class);

    private final ApiTokenValidator tokens;
    private final RateLimits limits;

    UserInfoRequests(ApiTokenValidator tokens, RateLimits limits) {
        this.tokens = tokens;
        this.limits = limits;
    }

    @Override
    public Authentication convert(HttpServletRequest request) {
        String presented = presentedToken(request);
        String address = ClientAddress.key(request);
        long wait = limits.blockedFor(Budget.UNKNOWN_TOKENS, address);
        if (wait > 0) {
            throw BearerTokenError.tooManyRequests(wait);
        }
        TokenCheck check;
        try {
            check = tokens.check(presented);
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
        return new OidcUserInfoAuthenticationToken(new BearerTokenAuthentication(check.owner()));
    }

    /** The one token the request presents; refuses none, two, or one in the query string. */
    private static String presentedToken(HttpServletRequest request) {
        List<String> headers = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
        List<String> bearers = headers.stream().filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7)).toList();
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
        return bearers.isEmpty() ? inBody[0] : bearers.get(0).substring(7).strip();
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
