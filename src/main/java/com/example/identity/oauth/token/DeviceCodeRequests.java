package com.example.identity.oauth.token;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2DeviceCodeAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.MultiValueMap;

import com.example.identity.oauth.error.StandardError;

/**
 * The device code grant's own parameter at {@code /oauth/token.php} (RFC 8628 §3.4), read once the client
 * has authenticated: {@code device_code}, once, from the form body; the {@code DPoP} header, when sent, for
 * {@link TokenRequestProofs}. Refusals are {@code invalid_request}
 * with a Spanish description. Plugged into Spring Authorization Server's token endpoint ahead of its own
 * converters, like {@link RefreshTokenRequests}.
 */
public final class DeviceCodeRequests implements AuthenticationConverter {

    public static final String GRANT_TYPE = AuthorizationGrantType.DEVICE_CODE.getValue();

    @Override
    public @Nullable Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        if (!GRANT_TYPE.equals(form.getFirst(OAuth2ParameterNames.GRANT_TYPE))) {
            return null;
        }
        List<String> deviceCode = form.get(OAuth2ParameterNames.DEVICE_CODE);
        if (deviceCode == null || deviceCode.get(0).isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro device_code");
        }
        if (deviceCode.size() > 1) {
            throw StandardError.invalidRequest("Parametro repetido: device_code");
        }
        Authentication client = SecurityContextHolder.getContext().getAuthentication();
        return new OAuth2DeviceCodeAuthenticationToken(deviceCode.get(0), client, TokenRequestProofs.parameters(request));
    }
}
