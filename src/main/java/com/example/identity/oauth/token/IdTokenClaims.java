package com.example.identity.oauth.token;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.minors.Minors;
import com.example.identity.oauth.authorize.AuthenticationRequestFilter;
import com.example.identity.oauth.store.DatabaseAuthorizationService;
import com.example.identity.oauth.userinfo.UserInfoClaims;

/**
 * The claims of an {@code id_token} (specification §2.6) on top of what Spring Authorization Server's
 * {@code JwtGenerator} sets ({@code iss}, {@code aud}, {@code exp}, {@code iat}, {@code nonce}):
 * {@code sub} = {@code user:<id>}, {@code auth_time} (when the user logged in), {@code amr} (RFC 8176, how:
 * {@code ["pwd"]} for a password; {@code ["pwd","otp","mfa"]} and so on with a second factor), {@code acr}
 * {@code mfa} when a second factor was used, {@code email} and {@code email_verified} with scope
 * {@code email}, {@code name} and {@code given_name} with scope {@code profile}, and each of those four also
 * when the {@code claims} parameter asked for it in the id_token (UserInfoClaims#userClaims), {@code invitado}
 * (decisions §24: true for a guest player, false for others with {@code profile}), {@code menor} and, under the
 * consent age, {@code consentimiento_parental} with {@code profile} (decisions §27), and {@code sid}
 * (Back-Channel Logout 1.0) where the authorization was given in a browser session.
 */
public class IdTokenClaims implements OAuth2TokenCustomizer<JwtEncodingContext> {

    private final Minors minors;

    public IdTokenClaims(Minors minors) {
        this.minors = minors;
    }

    @Override
    public void customize(JwtEncodingContext context) {
        if (!OidcParameterNames.ID_TOKEN.equals(context.getTokenType().getValue())
                || !(context.getPrincipal().getPrincipal() instanceof AccountPrincipal user)) {
            return;
        }
        var claims = context.getClaims();
        claims.subject(user.subject());
        if (context.getAuthorization() != null
                && context.getAuthorization().getAttribute(DatabaseAuthorizationService.AUTH_TIME) instanceof Instant authTime) {
            claims.claim("auth_time", authTime.getEpochSecond());
        }
        var authorization = context.getAuthorization();
        if (authorization != null && authorization.getAttribute(DatabaseAuthorizationService.AMR) instanceof List<?> amr
                && !amr.isEmpty()) {
            claims.claim("amr", amr);
            if (amr.contains(AuthenticationRequestFilter.MFA)) {
                // OIDC Core §2: the class of the login, as acr_values asks for it
                claims.claim("acr", AuthenticationRequestFilter.MFA);
            }
        }
        // Back-Channel Logout 1.0 §2.1: the login session's sid, the same for every id_token of that session
        // (refreshes included); none where no browser session logged the application in (the device flow)
        if (authorization != null && authorization.getAttribute(DatabaseAuthorizationService.SID) instanceof String sid) {
            claims.claim("sid", sid);
        }
        else {
            claims.claims(all -> all.remove("sid"));
        }
        Set<?> requested = authorization != null
                && authorization.getAttribute(DatabaseAuthorizationService.ID_TOKEN_CLAIMS) instanceof Set<?> names
                ? names : Set.of();
        // the same user claims as the UserInfo answer
        UserInfoClaims.userClaims(context.getAuthorizedScopes(), requested, user.correo(), user.primerNombre(),
                user.emailVerified(), user.rol().isGuest())
                .forEach(claims::claim);
        // decisions §27: menor, and consentimiento_parental under the consent age; never the birth date
        UserInfoClaims.minorClaims(context.getAuthorizedScopes(), minors, user.id()).forEach(claims::claim);
    }
}
