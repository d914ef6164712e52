package com.example.identity.oauth.metadata;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.oauth.token.TokenEndpointMethodCheck;
import com.example.identity.web.ChainCustomizer;

/**
 * The two public documents: the discovery document ({@code /.well-known/openid-configuration}, only what is
 * served: {@link DiscoveryDocument}) and the key set ({@code /oauth/jwks.json}), both written as
 * {@code application/json;charset=UTF-8} ({@link JsonContentTypeFilter}, before {@link TokenEndpointMethodCheck},
 * after {@link ClientAuthenticationCustomizer}'s filter there: applied after it).
 */
@Component
public class MetadataEndpointsCustomizer implements ChainCustomizer {

    private final DiscoveryDocument discovery;

    MetadataEndpointsCustomizer(DiscoveryDocument discovery) {
        this.discovery = discovery;
    }

    @Override
    public void customize(HttpSecurity http) {
        http
            .oauth2AuthorizationServer(server -> server
                .oidc(oidc -> oidc
                    .providerConfigurationEndpoint(configuration -> configuration
                        .providerConfigurationCustomizer(discovery))))
            .addFilterBefore(new JsonContentTypeFilter(Endpoints.PUBLIC_JSON), TokenEndpointMethodCheck.class);
    }
}
