package com.example.identity.oauth.device;

import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.OAuth2DeviceCode;
import org.springframework.security.oauth2.core.OAuth2UserCode;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2DeviceAuthorizationRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;

import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.deviceflow.DeviceAuthorizations;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.token.ClientCredentialsChecks;

/**
 * {@code POST /oauth/device.php} after the client authenticated (RFC 8628 §3.1, decisions §16): only an
 * application of type {@code dispositivo} ({@code unauthorized_client} otherwise), not revoked, asking for
 * known scopes ({@code invalid_scope}); then a run is started in the database ({@link DeviceAuthorizations})
 * and its two codes handed to {@link DeviceAuthorizationResponses}. Spring Authorization Server's device
 * authorization endpoint runs it in place of its own provider, which keeps the codes in its authorization
 * service.
 */
public final class DeviceAuthorizationStart implements AuthenticationProvider {

    private final DeviceAuthorizations devices;

    public DeviceAuthorizationStart(DeviceAuthorizations devices) {
        this.devices = devices;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (OAuth2DeviceAuthorizationRequestAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) request.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        ClientCredentialsChecks.revokedCheck(client);
        if (!DatabaseRegisteredClientRepository.isDevice(client)) {
            throw StandardError.unauthorizedClient("El flujo de dispositivo es solo para aplicaciones de tipo dispositivo");
        }
        Set<String> scopes = new LinkedHashSet<>(request.getScopes());
        for (String scope : scopes) {
            if (!DatabaseRegisteredClientRepository.SCOPES.contains(scope)) {
                throw StandardError.invalidScope("Alcance desconocido: se admiten openid, email, profile y offline_access");
            }
        }
        DeviceAuthorizations.Started started = devices.start(client.getClientId(), scopes);
        return new DeviceStarted(clientPrincipal, scopes, started);
    }

    /** The answer's values: Spring Authorization Server's result, with the run's polling interval. */
    static final class DeviceStarted extends OAuth2DeviceAuthorizationRequestAuthenticationToken {

        private static final long serialVersionUID = 1L;

        private final int interval;

        DeviceStarted(Authentication clientPrincipal, Set<String> scopes, DeviceAuthorizations.Started started) {
            super(clientPrincipal, scopes,
                    new OAuth2DeviceCode(started.deviceCode(), started.expiresAt().minus(DeviceAuthorizations.LIFETIME),
                            started.expiresAt()),
                    new OAuth2UserCode(started.userCode(), started.expiresAt().minus(DeviceAuthorizations.LIFETIME),
                            started.expiresAt()));
            this.interval = started.interval();
        }

        int interval() {
            return interval;
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2DeviceAuthorizationRequestAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
