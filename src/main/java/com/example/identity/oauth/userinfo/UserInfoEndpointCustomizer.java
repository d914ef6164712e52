package com.example.identity.oauth.userinfo;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.abuse.RateLimits;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.minors.Minors;
import com.example.identity.web.ChainCustomizer;

/**
 * OpenID Connect's UserInfo endpoint ({@code /oauth/userinfo.php}). A request's steps, in order:
 * <ol>
 * <li>the method, GET or POST ({@code oauth/StandardMethodCheck}, first of the chain: 405);</li>
 * <li>the bearer token read and checked, with the API's limits, by the endpoint's own converter
 * ({@link UserInfoRequests}; the chain gives Spring Authorization Server's JWT resource server no token to look
 * at);</li>
 * <li>the claims the token's scopes and {@code claims} request give ({@link UserInfoClaims});</li>
 * <li>the answer, or the refusal of RFC 6750 ({@link BearerErrorResponses}).</li>
 * </ol>
 */
@Component
public class UserInfoEndpointCustomizer implements ChainCustomizer {

    private final ApiTokenValidator tokens;
    private final RateLimits limits;
    private final JsonMapper json;
    private final DPoPProofs proofs;
    private final Minors minors;

    UserInfoEndpointCustomizer(ApiTokenValidator tokens, RateLimits limits, JsonMapper json, DPoPProofs proofs,
            Minors minors) {
        this.minors = minors;
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
                        providers.add(new UserInfoClaims(minors));
                    })
                    .errorResponseHandler(new BearerErrorResponses(json)))));
    }
}
