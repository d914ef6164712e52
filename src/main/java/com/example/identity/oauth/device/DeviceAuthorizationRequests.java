package com.example.identity.oauth.device;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2DeviceAuthorizationRequestAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.MultiValueMap;

import com.example.identity.Endpoints;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.token.TokenRequestConverter;

/**
 * The parameters of {@code POST /oauth/device.php} (RFC 8628 §3.1) once the client has authenticated: an
 * optional {@code scope}, once, from the form body. Refusals in the RFCs' shape with a Spanish description
 * ({@link StandardError}). Replaces Spring Authorization Server's converter, whose descriptions are English.
 */
final class DeviceAuthorizationRequests implements AuthenticationConverter {

    @Override
    public @Nullable Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        List<String> scope = form.get(OAuth2ParameterNames.SCOPE);
        if (scope != null && scope.size() > 1) {
            throw StandardError.invalidRequest("Parametro repetido: scope");
        }
        Set<String> scopes = scope == null || scope.get(0).isBlank() ? Set.of()
                : new LinkedHashSet<>(Arrays.asList(scope.get(0).trim().split(" +")));
        Authentication client = SecurityContextHolder.getContext().getAuthentication();
        return new OAuth2DeviceAuthorizationRequestAuthenticationToken(client, Endpoints.DEVICE, scopes,
                Map.of());
    }
}
