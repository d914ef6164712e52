package com.example.identity.oauth.token;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2RefreshTokenAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.MultiValueMap;

import com.example.identity.oauth.error.StandardError;

/**
 * The refresh grant's own parameters at {@code /oauth/token.php} (RFC 6749 §6), read once the client has
 * authenticated ({@link TokenRequestConverter}, {@link ClientCredentialsChecks}): {@code refresh_token},
 * once, and an optional {@code scope}, once; the {@code DPoP} header, when sent, for {@link TokenRequestProofs}. Refusals are RFC 6749 §5.2's {@code invalid_request} with a
 * Spanish description (decisions §12.5). Plugged into Spring Authorization Server's token endpoint ahead
 * of its own converters.
 */
final class RefreshTokenRequests implements AuthenticationConverter {

    @Override
    public @Nullable Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        if (!TokenRequestConverter.REFRESH_TOKEN.equals(form.getFirst(OAuth2ParameterNames.GRANT_TYPE))) {
            return null;
        }
        List<String> refreshToken = form.get(OAuth2ParameterNames.REFRESH_TOKEN);
        if (refreshToken == null || refreshToken.get(0).isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro refresh_token");
        }
        List<String> scope = form.get(OAuth2ParameterNames.SCOPE);
        if (refreshToken.size() > 1 || (scope != null && scope.size() > 1)) {
            throw StandardError.invalidRequest("Parametro repetido");
        }
        Set<String> scopes = scope == null || scope.get(0).isBlank() ? Set.of()
                : new LinkedHashSet<>(Arrays.asList(scope.get(0).trim().split(" +")));
        Authentication client = SecurityContextHolder.getContext().getAuthentication();
        return new OAuth2RefreshTokenAuthenticationToken(refreshToken.get(0), client, scopes,
                TokenRequestProofs.parameters(request));
    }
}
