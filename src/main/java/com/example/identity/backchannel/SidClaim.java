package com.example.identity.backchannel;

import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.stereotype.Component;

/**
 * The {@code sid} claim of an id_token (Back-Channel Logout 1.0 §2.1, OpenID Connect Front-Channel Logout §3): the
 * login session's identifier recorded with the authorization by {@link SidRecordingFilter}, the same for every
 * id_token of that session (refreshes included). An
 * authorization without one (the device flow, where no browser session logs the application in) has no sid.
 * Applied after oauth's own claims (oauth/AuthorizationServerConfig composes the id_token customizers).
 */
@Component
class SidClaim implements OAuth2TokenCustomizer<JwtEncodingContext> {

    private final LogoutSessions sessions;

    SidClaim(LogoutSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public void customize(JwtEncodingContext context) {
        if (!OidcParameterNames.ID_TOKEN.equals(context.getTokenType().getValue()) || context.getAuthorization() == null) {
            return;
        }
        sessions.sidOf(context.getAuthorization().getId())
                .ifPresentOrElse(sid -> context.getClaims().claim("sid", sid),
                        () -> context.getClaims().claims(claims -> claims.remove("sid")));
    }
}
