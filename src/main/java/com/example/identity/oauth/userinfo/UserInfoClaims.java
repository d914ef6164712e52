package com.example.identity.oauth.userinfo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.core.oidc.OidcUserInfo;
import org.springframework.security.oauth2.server.authorization.oidc.authentication.OidcUserInfoAuthenticationToken;

import com.example.identity.oidc.RequestedClaims;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenOwner;
import com.example.identity.minors.Minors;

/**
 * Step 2 of {@code /oauth/userinfo.php} (decisions §12.1), plugged into Spring Authorization Server's
 * UserInfo endpoint as its authentication provider: the claims of the token's owner that its scopes (and the
 * {@code claims} parameter of its authorization, OIDC Core §5.5) allow. Spring Authorization Server's own
 * provider is not used because it reads the {@code id_token} back from the stored authorization, and this
 * server stores no id_token: the answer is built from the token's cached row alone (the profile as it is
 * now, like {@code /api/userinfo.php}), so a UserInfo call costs no database round trip either.
 *
 * <p>A token issued to an application without {@code openid}, and a personal API token, is valid but not
 * for this endpoint: {@code insufficient_scope}. {@code email_verified} is the account's: true once the person proved
 * the address (decisions §18).
 */
public final class UserInfoClaims implements AuthenticationProvider {

    private final Minors minors;

    public UserInfoClaims(Minors minors) {
        this.minors = minors;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (OidcUserInfoAuthenticationToken) authentication;
        if (!(request.getPrincipal() instanceof BearerTokenAuthentication bearer)) {
            throw BearerTokenError.missing();
        }
        TokenOwner owner = bearer.owner();
        if (owner.kind() != TokenKind.OAUTH || !owner.scopes().contains(OidcScopes.OPENID)) {
            throw BearerTokenError.insufficientScope(OidcScopes.OPENID);
        }
        Map<String, Object> claims = claims(owner);
        minorClaims(owner.scopes(), minors, owner.userId()).forEach(claims::put);
        return new OidcUserInfoAuthenticationToken(bearer, new OidcUserInfo(claims));
    }

    /**
     * {@code sub}; {@code email}, {@code email_verified} with scope email; {@code name}, {@code given_name} with
     * profile; each of them also when the {@code claims} parameter asked for it in {@code userinfo}.
     */
    static Map<String, Object> claims(TokenOwner owner) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", "user:" + owner.userId());
        claims.putAll(userClaims(owner.scopes(), owner.userInfoClaims(), owner.correo(), owner.primerNombre(), owner.emailVerified(),
                owner.rol().isGuest()));
        return claims;
    }

    /**
     * The user claims that the granted scopes bring ({@code email}: {@code email} and {@code email_verified};
     * {@code profile}: {@code name} and {@code given_name}), plus those of {@link RequestedClaims#KNOWN} named in
     * {@code requested} (the {@code claims} parameter), each on its own; in that order; then {@code invitado}
     * (decisions §24): {@code true} for a guest player always, {@code false} for everyone else with {@code profile}.
     * A guest has no address: no {@code email} nor {@code email_verified} (OIDC Core §5.3.2: a claim without a
     * value is left out). The id_token ({@link IdTokenClaims}) and the UserInfo answer share it.
     */
    public static Map<String, Object> userClaims(Set<String> scopes, Set<?> requested, String correo, String primerNombre,
            boolean emailVerified, boolean guest) {
        boolean email = scopes.contains(OidcScopes.EMAIL);
        boolean profile = scopes.contains(OidcScopes.PROFILE);
        Map<String, Object> claims = new LinkedHashMap<>();
        if ((email || requested.contains("email")) && correo != null) {
            claims.put("email", correo);
        }
        if ((email || requested.contains("email_verified")) && correo != null) {
            claims.put("email_verified", emailVerified);
        }
        if (profile || requested.contains("name")) {
            claims.put("name", primerNombre);
        }
        if (profile || requested.contains("given_name")) {
            claims.put("given_name", primerNombre);
        }
        if (guest || profile || requested.contains(GUEST_CLAIM)) {
            claims.put(GUEST_CLAIM, guest);
        }
        return claims;
    }

    /**
     * Decisions §27, with {@code profile}: {@code menor} ({@code true} under 18; {@code false} for anyone whose birth
     * date was never asked) and, under {@code identity.minors.consent-age}, {@code consentimiento_parental}
     * ({@code pendiente} or {@code concedido}); never the birth date. From minors/'s cache: no statement once warm.
     * The id_token ({@link IdTokenClaims}) and the UserInfo answer share it.
     */
    public static Map<String, Object> minorClaims(Set<String> scopes, Minors minors, long userId) {
        Map<String, Object> claims = new LinkedHashMap<>();
        if (scopes.contains(OidcScopes.PROFILE)) {
            claims.put(MINOR_CLAIM, minors.isMinor(userId));
            String consent = minors.parentalConsentClaim(userId);
            if (consent != null) {
                claims.put(PARENTAL_CONSENT_CLAIM, consent);
            }
        }
        return claims;
    }

    /** Decisions §27: whether the person is under 18, and the state of a parent's consent under the consent age. */
    public static final String MINOR_CLAIM = "menor";
    public static final String PARENTAL_CONSENT_CLAIM = "consentimiento_parental";

    /** Decisions §24: whether the account is a guest player's. */
    public static final String GUEST_CLAIM = "invitado";

    @Override
    public boolean supports(Class<?> authentication) {
        return OidcUserInfoAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
