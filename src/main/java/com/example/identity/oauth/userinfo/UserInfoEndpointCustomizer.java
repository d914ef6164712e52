package com.example.identity.oauth.userinfo;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.abuse.RateLimits;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.web.ChainCustomizer;

/**
 * OpenID Connect's UserInfo endpoint ({@code /oauth/userinfo.php}): the bearer token read and checked by the
 * endpoint's own converter ({@link UserInfoRequests}, with the API's limits), the claims
 * ({@link UserInfoClaims}) and the refusals ({@link BearerErrorResponses}). The chain gives Spring Authorization
 * Server's JWT resource server no token to look at.
 */
@Component
public class UserInfoEndpointCustomizer implements ChainCustomizer {

    private final ApiTokenValidator tokens;
    private final RateLimits limits;
    private final JsonMapper json;
    private final DPoPProofs proofs;

    UserInfoEndpointCustomizer(ApiTokenValidator tokens, RateLimits limits, JsonMapper json, DPoPProofs proofs) {
        this.proofs = proofs;
        this.tokens = tokens;
        this.limits = limits;
        this.json = json;
    }

    @Override
    public void customize(HttpSecurity http) {
        http.oauth2AuthorizationServer(server -> server
            .oidc(oidc -> oidc
                .userInfoEndpoint(userInfo -> userInfo
                    .userInfoRequestConverter(new UserInfoRequests(tokens, limits, proofs))
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(new UserInfoClaims());
                    })
                    .errorResponseHandler(new BearerErrorResponses(json)))));
    }
}
