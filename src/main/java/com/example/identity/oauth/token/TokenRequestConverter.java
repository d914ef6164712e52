package com.example.identity.oauth.token;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.oauth.error.TokenError;

/**
 * The first steps of {@code /oauth/token.php}, run as Spring Authorization Server's client
 * authentication converter so that they come before the client is looked up, in the order of decisions
 * §1: {@link #grantTypeCheck}, {@link #requiredParametersCheck} ({@code Faltan parámetros obligatorios},
 * then {@code Parámetro repetido}), {@link #singleAuthenticationCheck} (RFC 6749 §2.3: one method per
 * request, so HTTP Basic and a form {@code client_secret} together are a repeated parameter), then reading
 * the client's credentials from HTTP Basic ({@code client_secret_basic}) or the form
 * ({@code client_secret_post}). A malformed Basic header counts as Basic for the mandatory parameters and
 * is refused as {@code client_id inválido} only after them.
 *
 * <p>A bean, but deliberately not an {@code AuthenticationConverter}: the authorization server's chain
 * configures a resource server for its OIDC endpoints, and Spring Security's resource server takes any
 * {@code AuthenticationConverter} bean as its bearer token converter, for every request of the chain. The
 * chain plugs in {@link #convert} as a method reference.
 *
 * <p>Only form parameters count: a parameter in the query string is ignored, so secrets and codes in
 * URLs are not honoured.
 */
public class TokenRequestConverter {

    private final RegisteredClientRepository clients;

    public TokenRequestConverter(RegisteredClientRepository clients) {
        this.clients = clients;
    }

    /** Whether {@code clientId} names a native (public) application; the lookup is the clients' cache. */
    static boolean isPublicClient(RegisteredClientRepository clients, String clientId) {
        if (clientId == null || clientId.isEmpty() || clientId.length() > 100) {
            return false;
        }
        RegisteredClient client = clients.findByClientId(clientId);
        return client != null && DatabaseRegisteredClientRepository.isPublic(client);
    }

    static final String AUTHORIZATION_CODE = "authorization_code";
    static final String REFRESH_TOKEN = "refresh_token";
    static final String CLIENT_CREDENTIALS = AuthorizationGrantType.CLIENT_CREDENTIALS.getValue();
    private static final Set<String> GRANT_TYPES = Set.of(AUTHORIZATION_CODE, REFRESH_TOKEN,
            DeviceCodeRequests.GRANT_TYPE, CLIENT_CREDENTIALS, TicketRequests.GRANT_TYPE);
    /** The grants that only some types of application are registered for ({@link #clientGrantCheck}). */
    private static final Set<String> GRANTS_OF_SOME_TYPES = Set.of(CLIENT_CREDENTIALS, TicketRequests.GRANT_TYPE);
    /** What every grant sends once at most, checked with the client (the grant's own parameters after it). */
    private static final List<String> CLIENT_PARAMETERS = List.of(OAuth2ParameterNames.GRANT_TYPE,
            OAuth2ParameterNames.CLIENT_ID, OAuth2ParameterNames.CLIENT_SECRET);
    private static final List<String> SINGLE_VALUED = List.of(OAuth2ParameterNames.GRANT_TYPE, OAuth2ParameterNames.CODE,
            OAuth2ParameterNames.REDIRECT_URI, OAuth2ParameterNames.CLIENT_ID, OAuth2ParameterNames.CLIENT_SECRET,
            "code_verifier");

    Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = formParameters(request);
        String grantType = grantTypeCheck(form);
        BasicCredentials basic = BasicCredentials.of(request);
        clientGrantCheck(grantType, basic, form);
        // a public (native) application sends its client_id and no secret (decisions §16); for any other
        // client a missing secret stays the legacy "Faltan parámetros obligatorios", in the legacy order
        String formSecret = form.getFirst(OAuth2ParameterNames.CLIENT_SECRET);
        boolean publicClient = basic == null && (formSecret == null || formSecret.isEmpty())
                && isPublicClient(clients, form.getFirst(OAuth2ParameterNames.CLIENT_ID));
        requiredParametersCheck(form, basic != null || publicClient, grantType);
        singleAuthenticationCheck(form, basic != null);

        String clientId;
        String secret;
        ClientAuthenticationMethod method;
        if (basic != null) {
            if (basic.malformed()) {
                throw TokenError.INVALID_CLIENT_ID.exception();
            }
            clientId = basic.clientId();
            secret = basic.secret();
            method = ClientAuthenticationMethod.CLIENT_SECRET_BASIC;
            String formClientId = form.getFirst(OAuth2ParameterNames.CLIENT_ID);
            if (formClientId != null && !formClientId.equals(clientId)) {
                throw TokenError.INVALID_CLIENT_ID.exception();
            }
        }
        else if (publicClient) {
            clientId = form.getFirst(OAuth2ParameterNames.CLIENT_ID);
            secret = null;
            method = ClientAuthenticationMethod.NONE;
        }
        else {
            clientId = form.getFirst(OAuth2ParameterNames.CLIENT_ID);
            secret = form.getFirst(OAuth2ParameterNames.CLIENT_SECRET);
            method = ClientAuthenticationMethod.CLIENT_SECRET_POST;
        }
        Map<String, Object> parameters = new HashMap<>();
        form.forEach((name, values) -> {
            if (!name.equals(OAuth2ParameterNames.CLIENT_SECRET) && values.size() == 1) {
                parameters.put(name, values.get(0));
            }
        });
        return new OAuth2ClientAuthenticationToken(clientId, method, secret, parameters);
    }

    /**
     * {@code grant_type} must be {@code authorization_code}, {@code refresh_token} (decisions §12.5),
     * {@code urn:ietf:params:oauth:grant-type:device_code} (decisions §16), {@code client_credentials} (§21) or
     * {@code urn:ietf:params:oauth:grant-type:token-exchange} (§25): else {@code grant_type inválido}.
     *
     * @return the grant type
     */
    static String grantTypeCheck(MultiValueMap<String, String> form) {
        List<String> grantType = form.get(OAuth2ParameterNames.GRANT_TYPE);
        if (grantType != null && grantType.size() > 1) {
            throw TokenError.REPEATED_PARAMETER.exception();
        }
        if (grantType == null || !GRANT_TYPES.contains(grantType.get(0))) {
            throw TokenError.INVALID_GRANT_TYPE.exception();
        }
        return grantType.get(0);
    }

    /**
     * Two grants belong to some types of application only, as their registrations say
     * ({@code DatabaseRegisteredClientRepository}): {@code client_credentials} to {@code servidor} applications
     * (decisions §21), the token exchange of tickets to {@code web}, {@code nativa} and {@code dispositivo} ones
     * (§25: a server asks for no ticket). For any other client, or none, such a grant stays what it always was at
     * this endpoint, {@code grant_type inválido}, the first refusal of the legacy order, so no existing client sees
     * a new answer. Whether the client id names such an application is one lookup in the clients' cache; its
     * secret is checked later, as for every grant.
     */
    private void clientGrantCheck(String grantType, @Nullable BasicCredentials basic, MultiValueMap<String, String> form) {
        if (!GRANTS_OF_SOME_TYPES.contains(grantType)) {
            return;
        }
        String clientId = basic != null ? basic.clientId() : form.getFirst(OAuth2ParameterNames.CLIENT_ID);
        RegisteredClient client = clientId == null || clientId.isEmpty() || clientId.length() > 100 ? null
                : clients.findByClientId(clientId);
        if (client == null || !client.getAuthorizationGrantTypes().contains(new AuthorizationGrantType(grantType))) {
            throw TokenError.INVALID_GRANT_TYPE.exception();
        }
    }

    /**
     * {@code code}, {@code redirect_uri}, {@code client_id} and {@code client_secret} are all mandatory,
     * the last two unless the client authenticates with HTTP Basic ({@code Faltan parámetros
     * obligatorios}). Then none may be sent twice ({@code Parámetro repetido}, the next row of the table).
     */
    static void requiredParametersCheck(MultiValueMap<String, String> form, boolean basic, String grantType) {
        boolean code = AUTHORIZATION_CODE.equals(grantType);
        Set<String> required = code
                ? (basic ? Set.of(OAuth2ParameterNames.CODE, OAuth2ParameterNames.REDIRECT_URI)
                        : Set.of(OAuth2ParameterNames.CODE, OAuth2ParameterNames.REDIRECT_URI,
                                OAuth2ParameterNames.CLIENT_ID, OAuth2ParameterNames.CLIENT_SECRET))
                // the other grants: the client checks come first as for a code (decisions §12.5); their own
                // parameters are checked after them, with the RFCs' errors (RefreshTokenRequests)
                : (basic ? Set.of() : Set.of(OAuth2ParameterNames.CLIENT_ID, OAuth2ParameterNames.CLIENT_SECRET));
        for (String name : required) {
            String value = form.getFirst(name);
            if (value == null || value.isEmpty()) {
                throw TokenError.MISSING_PARAMETERS.exception();
            }
        }
        for (String name : code ? SINGLE_VALUED : CLIENT_PARAMETERS) {
            List<String> values = form.get(name);
            if (values != null && values.size() > 1) {
                throw TokenError.REPEATED_PARAMETER.exception();
            }
        }
    }

    /**
     * A client authenticates one way per request (RFC 6749 §2.3): HTTP Basic together with a non-empty
     * form {@code client_secret} is refused as {@code Parámetro repetido}, whether or not the two agree.
     * (A form {@code client_id} with Basic stays allowed, and must name the same client.)
     */
    static void singleAuthenticationCheck(MultiValueMap<String, String> form, boolean basic) {
        String formSecret = form.getFirst(OAuth2ParameterNames.CLIENT_SECRET);
        if (basic && formSecret != null && !formSecret.isEmpty()) {
            throw TokenError.REPEATED_PARAMETER.exception();
        }
    }

    /** The request's parameters that came in the form body, not in the query string. */
    public static MultiValueMap<String, String> formParameters(HttpServletRequest request) {
        Set<String> inQuery = request.getQueryString() == null ? Set.of()
                : UriComponentsBuilder.newInstance().query(request.getQueryString()).build().getQueryParams().keySet();
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        request.getParameterMap().forEach((name, values) -> {
            if (!inQuery.contains(name)) {
                form.put(name, List.of(values));
            }
        });
        return form;
    }
}
