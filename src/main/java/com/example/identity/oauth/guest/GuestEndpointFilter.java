package com.example.identity.oauth.guest;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;
import com.example.identity.abuse.ClientAddress;
import com.example.identity.abuse.RateLimits;
import com.example.identity.abuse.TooManyRequests;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.common.SpaceSeparated;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.error.TokenResponses;

/**
 * {@code POST /oauth/invitado.php} (decisions §24), answered in the authorization server's chain as its own
 * endpoints are, its checks in this order, each refusal in RFC 6749 §5.2's shape with a Spanish (ASCII)
 * {@code error_description}:
 * <ol>
 * <li>{@code client_id}, sent once ({@code invalid_request}), of a known application that is not revoked
 *     ({@code invalid_client}, 401);</li>
 * <li>the application accepts guests: a {@code nativa} or {@code dispositivo} one with {@code invitados}
 *     ({@code unauthorized_client});</li>
 * <li>{@code scope}, optional, sent once, of the scopes this server knows ({@code invalid_scope});</li>
 * <li>with {@code openid}, a key to sign the id_token (as the token endpoint: a 500, and no guest made);</li>
 * <li>the client address's guests this hour, {@code identity.guests.per-address-hour}, counted on every instance:
 *     past it 429 with {@code Retry-After};</li>
 * <li>the guest and its tokens ({@link GuestTokens}): 200 with the token endpoint's JSON.</li>
 * </ol>
 * Other methods get the standard endpoints' 405 (oauth/StandardMethodCheck).
 */
final class GuestEndpointFilter extends OncePerRequestFilter {

    static final String BUDGET = "guests";

    private final RegisteredClientRepository clients;
    private final SigningKeys signingKeys;
    private final RateLimits.SharedBudget perAddress;
    private final GuestTokens tokens;
    private final TokenResponses responses;

    GuestEndpointFilter(RegisteredClientRepository clients, SigningKeys signingKeys, RateLimits.SharedBudget perAddress,
            GuestTokens tokens, TokenResponses responses) {
        this.clients = clients;
        this.signingKeys = signingKeys;
        this.perAddress = perAddress;
        this.tokens = tokens;
        this.responses = responses;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !Endpoints.GUEST_ENDPOINT.matches(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            RegisteredClient client = client(request);
            acceptsGuests(client);
            Set<String> scopes = scopes(request);
            if (scopes.contains(OidcScopes.OPENID) && !signingKeys.canSign()) {
                throw TokenError.OIDC_KEY_MISSING.exception();
            }
            long wait = perAddress.take(ClientAddress.key(request));
            if (wait > 0) {
                TooManyRequests.STANDARD.write(response, wait);
                return;
            }
            responses.onAuthenticationSuccess(request, response, tokens.issue(client, scopes));
        }
        catch (AuthenticationException refused) {
            responses.writeError(request, response, refused);
        }
    }

    /** Step 1: the application named by {@code client_id}, known and not revoked. */
    private RegisteredClient client(HttpServletRequest request) {
        String clientId = single(request, "client_id");
        if (clientId == null || clientId.isEmpty()) {
            throw StandardError.invalidRequest("Falta el parametro client_id");
        }
        RegisteredClient client = clients.findByClientId(clientId);
        if (client == null) {
            throw StandardError.invalidClient("client_id desconocido");
        }
        if (DatabaseRegisteredClientRepository.isRevoked(client)) {
            throw StandardError.invalidClient("La aplicacion esta revocada");
        }
        return client;
    }

    /** Step 2: a native or device application that accepts guests. */
    private static void acceptsGuests(RegisteredClient client) {
        if (!DatabaseRegisteredClientRepository.isPublic(client) || !DatabaseRegisteredClientRepository.acceptsGuests(client)) {
            throw StandardError.unauthorizedClient("Esta aplicacion no admite invitados");
        }
    }

    /** Step 3: the scopes asked for, each one this server knows; none when {@code scope} is absent. */
    private static Set<String> scopes(HttpServletRequest request) {
        String scope = single(request, "scope");
        Set<String> scopes = new LinkedHashSet<>(SpaceSeparated.words(scope));
        if (!DatabaseRegisteredClientRepository.SCOPES.containsAll(scopes)) {
            throw StandardError.invalidScope("Alcance desconocido: openid, email, profile u offline_access");
        }
        return scopes;
    }

    private static String single(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        if (values == null || values.length == 0) {
            return null;
        }
        if (values.length > 1) {
            throw StandardError.invalidRequest("Parametro repetido: " + name);
        }
        return values[0];
    }
}
