package com.example.identity.oauth.token;

import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.util.MultiValueMap;

import com.example.identity.oauth.error.StandardError;

/**
 * A client's credentials at the endpoints added for standard clients (revocation, introspection, device
 * authorization, pushed authorization requests), in this order, refusals in the RFCs' shape ({@link StandardError}):
 * <ol>
 * <li>{@code client_id} and {@code client_secret} sent once each in the form ({@code Parametro repetido: ...});</li>
 * <li>HTTP Basic ({@code client_secret_basic}): readable, and naming the form's {@code client_id} if there is one
 * ({@code Autenticacion del cliente fallida}); with no form {@code client_secret} too (RFC 6749 §2.3: one way
 * only);</li>
 * <li>where the endpoint takes them ({@link #withPublicClients}), a native or device application's
 * {@code client_id} alone ({@code none});</li>
 * <li>else the form's {@code client_id} and {@code client_secret} ({@code client_secret_post}), both present
 * ({@code Faltan las credenciales del cliente}).</li>
 * </ol>
 * The secret itself is checked after this, by {@link ClientCredentialsChecks}. Only form parameters count
 * ({@link TokenRequestConverter#formParameters}).
 */
final class StandardClientCredentials implements AuthenticationConverter {

    private final RegisteredClientRepository clients;
    private final boolean publicClients;

    private StandardClientCredentials(RegisteredClientRepository clients, boolean publicClients) {
        this.clients = clients;
        this.publicClients = publicClients;
    }

    /**
     * A native or device application may authenticate with its {@code client_id} alone: it revokes its own tokens,
     * a device one starts the device flow, and a native one pushes its authorization requests (RFC 7009 §2.1,
     * RFC 8628 §3.1, RFC 9126 §2, decisions §16, §28).
     */
    static StandardClientCredentials withPublicClients(RegisteredClientRepository clients) {
        return new StandardClientCredentials(clients, true);
    }

    /** Confidential clients only: introspection (RFC 7662 §2.1: the resource servers that introspect are confidential). */
    static StandardClientCredentials confidentialOnly(RegisteredClientRepository clients) {
        return new StandardClientCredentials(clients, false);
    }

    @Override
    public Authentication convert(HttpServletRequest request) {
        MultiValueMap<String, String> form = TokenRequestConverter.formParameters(request);
        for (String name : List.of(OAuth2ParameterNames.CLIENT_ID, OAuth2ParameterNames.CLIENT_SECRET)) {
            List<String> values = form.get(name);
            if (values != null && values.size() > 1) {
                throw StandardError.invalidRequest("Parametro repetido: " + name);
            }
        }
        BasicCredentials basic = BasicCredentials.of(request);
        String formClientId = form.getFirst(OAuth2ParameterNames.CLIENT_ID);
        String formSecret = form.getFirst(OAuth2ParameterNames.CLIENT_SECRET);
        String clientId;
        String secret;
        ClientAuthenticationMethod method;
        if (basic != null) {
            if (basic.malformed() || (formClientId != null && !formClientId.equals(basic.clientId()))) {
                throw StandardError.invalidClient("Autenticacion del cliente fallida");
            }
            if (formSecret != null && !formSecret.isEmpty()) {
                throw StandardError.invalidRequest("El cliente se autentica de una sola forma");
            }
            clientId = basic.clientId();
            secret = basic.secret();
            method = ClientAuthenticationMethod.CLIENT_SECRET_BASIC;
        }
        else if (publicClients && (formSecret == null || formSecret.isEmpty())
                && TokenRequestConverter.isPublicClient(clients, formClientId)) {
            clientId = formClientId;
            secret = null;
            method = ClientAuthenticationMethod.NONE;
        }
        else {
            if (formClientId == null || formClientId.isEmpty() || formSecret == null || formSecret.isEmpty()) {
                throw StandardError.invalidClient("Faltan las credenciales del cliente");
            }
            clientId = formClientId;
            secret = formSecret;
            method = ClientAuthenticationMethod.CLIENT_SECRET_POST;
        }
        return new OAuth2ClientAuthenticationToken(clientId, method, secret, Map.of());
    }
}
