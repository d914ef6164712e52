package com.example.identity.oauth.token;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.web.authentication.OAuth2TokenExchangeAuthenticationConverter;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.MultiValueMap;

import com.example.identity.oauth.error.StandardError;

/**
 * The ticket grant's own parameters at {@code /oauth/token.php} (RFC 8693 §2.1, decisions §25), read once the
 * game has authenticated ({@link TokenRequestConverter}, {@link ClientCredentialsChecks}): {@code subject_token}
 * and {@code subject_token_type} ({@code ...:access_token}, the only kind of token this service issues to a
 * game), once each; {@code audience}, present (how many, and whose, is {@link TicketExchange}'s step);
 * {@code requested_token_type}, when sent, the one type a ticket is ({@code ...:jwt}); no {@code resource} (the
 * server is named by {@code audience}: {@code invalid_target}), no {@code actor_token} (a ticket speaks for the
 * player alone) and no {@code scope} (a ticket carries none). Refusals in RFC 6749 §5.2's shape with a Spanish
 * description, like the other grants' (decisions §12.5).
 *
 * <p>Once these hold, Spring Authorization Server's own {@link OAuth2TokenExchangeAuthenticationConverter}
 * reads the request into its {@code OAuth2TokenExchangeAuthenticationToken} (with the DPoP proof's header, when
 * one is sent, for the providers that will bind tokens to it); anything it still refuses is
 * {@code invalid_request}. Plugged into the token endpoint ahead of its own converters, like
 * {@link RefreshTokenRequests}.
 */
public final class TicketRequests implements AuthenticationConverter {

    public static final String GRANT_TYPE = AuthorizationGrantType.TOKEN_EXCHANGE.getValue();
    /** RFC 8693 §3: what a game presents, an access token that this service issued to it. */
    public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    /** RFC 8693 §3: what it gets, a JWT that is not an access token (the answer's {@code token_type} is {@code N_A}). */
    public static final String JWT_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:jwt";

    private final OAuth2TokenExchangeAuthenticationConverter stock = new OAuth2TokenExchangeAuthenticationConverter();

    @Override
    public @Nullable Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        if (!GRANT_TYPE.equals(form.getFirst(OAuth2ParameterNames.GRANT_TYPE))) {
            return null;
        }
        single(form, OAuth2ParameterNames.SUBJECT_TOKEN);
        if (!ACCESS_TOKEN_TYPE.equals(single(form, OAuth2ParameterNames.SUBJECT_TOKEN_TYPE))) {
            throw StandardError.invalidRequest("subject_token_type debe ser " + ACCESS_TOKEN_TYPE);
        }
        List<String> audiences = form.get(OAuth2ParameterNames.AUDIENCE);
        if (audiences == null || audiences.stream().allMatch(String::isEmpty)) {
            throw StandardError.invalidRequest("Falta el parametro audience: el client_id del servidor de juego");
        }
        List<String> requested = form.get(OAuth2ParameterNames.REQUESTED_TOKEN_TYPE);
        if (requested != null && (requested.size() > 1 || !JWT_TOKEN_TYPE.equals(requested.get(0)))) {
            throw StandardError.invalidRequest("requested_token_type: solo se emiten tickets, " + JWT_TOKEN_TYPE);
        }
        if (form.containsKey(OAuth2ParameterNames.RESOURCE)) {
            throw StandardError.invalidTarget("resource no se admite: el servidor de juego se indica con audience");
        }
        if (form.containsKey(OAuth2ParameterNames.ACTOR_TOKEN) || form.containsKey(OAuth2ParameterNames.ACTOR_TOKEN_TYPE)) {
            throw StandardError.invalidRequest("actor_token no se admite: el ticket habla solo por el jugador");
        }
        List<String> scope = form.get(OAuth2ParameterNames.SCOPE);
        if (scope != null && scope.stream().anyMatch(s -> !s.isBlank())) {
            throw StandardError.invalidScope("Un ticket no lleva alcances: no envies scope");
        }
        try {
            return stock.convert(request);
        }
        catch (OAuth2AuthenticationException e) {
            throw StandardError.invalidRequest("Peticion de intercambio de token invalida");
        }
    }

    /** The one non-empty value of {@code name}: else {@code invalid_request}. */
    private static String single(MultiValueMap<String, String> form, String name) {
        List<String> values = form.get(name);
        if (values == null || values.get(0).isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro " + name);
        }
        if (values.size() > 1) {
            throw StandardError.invalidRequest("Parametro repetido: " + name);
        }
        return values.get(0);
    }
}
