package com.example.identity.oauth.device;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.web.ChainCustomizer;

/**
 * The device authorization endpoint ({@code /oauth/device.php}, RFC 8628 §3.1, decisions §16): the start of
 * the device flow. The request ({@link DeviceAuthorizationRequests}), the run started for a device application
 * ({@link DeviceAuthorizationStart}), the answer with {@code verification_uri} from the issuer
 * ({@link DeviceAuthorizationResponses}) and the refusals ({@link TokenResponses}). The user's step is
 * {@code /activar} (deviceflow/ActivationController), a page of the web chain, not Spring Authorization Server's
 * verification endpoint.
 */
@Component
public class DeviceAuthorizationEndpointCustomizer implements ChainCustomizer {

    private final DeviceAuthorizationStart deviceStart;
    private final TokenResponses responses;
    private final IdentityProperties properties;

    DeviceAuthorizationEndpointCustomizer(DeviceAuthorizationStart deviceStart, TokenResponses responses,
            IdentityProperties properties) {
        this.deviceStart = deviceStart;
        this.responses = responses;
        this.properties = properties;
    }

    @Override
    public void customize(HttpSecurity http) {
        http.oauth2AuthorizationServer(server -> server
            .deviceAuthorizationEndpoint(device -> device
                .deviceAuthorizationRequestConverters(converters -> {
                    converters.clear();
                    converters.add(new DeviceAuthorizationRequests());
                })
                .authenticationProviders(providers -> {
                    providers.clear();
                    providers.add(deviceStart);
                })
                .deviceAuthorizationResponseHandler(new DeviceAuthorizationResponses(responses,
                        properties.issuerUrl()))
                .errorResponseHandler(responses)));
    }
}
