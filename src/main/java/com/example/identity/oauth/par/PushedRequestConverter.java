package com.example.identity.oauth.par;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

import com.example.identity.Endpoints;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.store.PushedRequests;
import com.example.identity.oauth.token.TokenRequestConverter;

/**
 * Reads a request to {@code /oauth/par.php} (RFC 9126 §2.1) once its client has authenticated (the token endpoint's
 * client authentication: HTTP Basic or {@code client_secret_post}, or a public client's {@code client_id} alone): the
 * authorization request's parameters from the form body (never the query string), without the client's credentials.
 * Every parameter once; {@code response_type} {@code code}; {@code client_id} present; no {@code request_uri} (a
 * pushed request cannot point at another, §2.1) and no {@code request} (request objects are not supported); at most
 * {@value PushedRequests#MAX_LENGTH} characters. Refusals in RFC 6749 §5.2's shape with a Spanish description
 * (decisions §12), like the token endpoint's standard errors.
 */
final class PushedRequestConverter implements AuthenticationConverter {

    /** The client's credentials, read by client authentication and never stored with the request. */
    private static final Set<String> CREDENTIALS = Set.of(OAuth2ParameterNames.CLIENT_SECRET, "client_assertion",
            "client_assertion_type");
    /** What Spring's request carries in its own fields, not among the additional parameters. */
    private static final Set<String> OWN_FIELDS = Set.of(OAuth2ParameterNames.RESPONSE_TYPE,
            OAuth2ParameterNames.CLIENT_ID, OAuth2ParameterNames.REDIRECT_URI, OAuth2ParameterNames.SCOPE,
            OAuth2ParameterNames.STATE);

    private final String authorizationUri;

    PushedRequestConverter(String issuer) {
        this.authorizationUri = issuer + Endpoints.AUTHORIZE;
    }

    @Override
    public @Nullable Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        MultiValueMap<String, String> parameters = new LinkedMultiValueMap<>();
        form.forEach((name, values) -> {
            if (!CREDENTIALS.contains(name)) {
                parameters.put(name, values);
            }
        });
        parameters.forEach((name, values) -> {
            if (values.size() > 1) {
                throw StandardError.invalidRequest("Parametro repetido: " + name);
            }
        });
        if (parameters.containsKey(OAuth2ParameterNames.REQUEST_URI)) {
            throw StandardError.invalidRequest("request_uri no se admite en una solicitud enviada (RFC 9126)");
        }
        if (parameters.containsKey("request")) {
            throw StandardError.invalidRequest("El parametro request no esta soportado");
        }
        String clientId = parameters.getFirst(OAuth2ParameterNames.CLIENT_ID);
        if (clientId == null || clientId.isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro client_id");
        }
        String responseType = parameters.getFirst(OAuth2ParameterNames.RESPONSE_TYPE);
        if (responseType == null || responseType.isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro response_type");
        }
        if (!"code".equals(responseType)) {
            throw StandardError.unsupportedResponseType("response_type debe ser code");
        }
        if (PushedRequests.encode(parameters).length() > PushedRequests.MAX_LENGTH) {
            throw StandardError.invalidRequest("Solicitud demasiado grande: como maximo "
                    + PushedRequests.MAX_LENGTH + " caracteres");
        }
        String scope = parameters.getFirst(OAuth2ParameterNames.SCOPE);
        Set<String> scopes = scope == null || scope.isBlank() ? Set.of()
                : new LinkedHashSet<>(Arrays.asList(scope.trim().split(" +")));
        Map<String, Object> additional = new HashMap<>();
        parameters.forEach((name, values) -> {
            if (!OWN_FIELDS.contains(name)) {
                additional.put(name, values.get(0));
            }
        });
        Authentication client = SecurityContextHolder.getContext().getAuthentication();
        return new PushedRequest(authorizationUri, clientId, client, emptyToNull(parameters, OAuth2ParameterNames.REDIRECT_URI),
                emptyToNull(parameters, OAuth2ParameterNames.STATE), scopes, additional, parameters);
    }

    private static @Nullable String emptyToNull(MultiValueMap<String, String> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.get(0).isEmpty() ? null : values.get(0);
    }
}
