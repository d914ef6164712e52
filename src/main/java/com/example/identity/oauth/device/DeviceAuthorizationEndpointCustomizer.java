package com.example.identity.oauth.device;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.token.ClientAuthenticationCustomizer;
import com.example.identity.web.ChainCustomizer;

/**
 * The device authorization endpoint ({@code /oauth/device.php}, RFC 8628 §3.1, decisions §16): the start of the
 * device flow. A request's steps, in order:
 * <ol>
 * <li>the method, POST only ({@code oauth/StandardMethodCheck}, first of the chain: 405);</li>
 * <li>the address's budget of failures ({@code abuse/RateLimitFilter}, placed by {@link ClientAuthenticationCustomizer});</li>
 * <li>the client: RFC 6749 §2.3, or a device application's {@code client_id} alone
 * ({@link ClientAuthenticationCustomizer#endpointsConverters}), then checked ({@code ClientCredentialsChecks});</li>
 * <li>that client's rate ({@code abuse/AuthenticatedClientFilter});</li>
 * <li>the request's {@code scope} ({@link DeviceAuthorizationRequests});</li>
 * <li>the run started, for a {@code dispositivo} application only ({@link DeviceAuthorizationStart});</li>
 * <li>the answer with {@code verification_uri} from the issuer ({@link DeviceAuthorizationResponses}), or the
 * refusal ({@link TokenResponses}).</li>
 * </ol>
 * The user's step is {@code /activar} (deviceflow/ActivationController), a page of the web chain, not Spring
 * Authorization Server's verification endpoint.
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
