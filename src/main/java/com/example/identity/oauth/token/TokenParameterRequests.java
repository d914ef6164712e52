package com.example.identity.oauth.token;

import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenIntrospectionAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenRevocationAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.MultiValueMap;

import com.example.identity.oauth.error.StandardError;

/**
 * The parameters of {@code /oauth/revoke.php} (RFC 7009 §2.1) and {@code /oauth/introspect.php} (RFC 7662
 * §2.1), read from the form body once the client authenticated: {@code token}, once, and an optional
 * {@code token_type_hint}, once; refusals are {@code invalid_request} with a Spanish description.
 */
public final class TokenParameterRequests implements AuthenticationConverter {

    private final boolean revocation;

    private TokenParameterRequests(boolean revocation) {
        this.revocation = revocation;
    }

    public static TokenParameterRequests revocation() {
        return new TokenParameterRequests(true);
    }

    public static TokenParameterRequests introspection() {
        return new TokenParameterRequests(false);
    }

    @Override
    public Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        List<String> token = form.get("token");
        List<String> hint = form.get("token_type_hint");
        if (token == null || token.get(0).isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro token");
        }
        if (token.size() > 1 || (hint != null && hint.size() > 1)) {
            throw StandardError.invalidRequest("Parametro repetido");
        }
        String tokenTypeHint = hint == null ? null : hint.get(0);
        Authentication client = SecurityContextHolder.getContext().getAuthentication();
        return revocation ? new OAuth2TokenRevocationAuthenticationToken(token.get(0), client, tokenTypeHint)
                : new OAuth2TokenIntrospectionAuthenticationToken(token.get(0), client, tokenTypeHint, Map.of());
    }
}
