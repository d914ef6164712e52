package com.example.identity.oauth.token;

import java.util.Map;
import java.util.Set;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AccessTokenAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenOwner;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.sanctions.Sanctions;

/**
 * The ticket grant (RFC 8693 token exchange, decisions §25): a game holding a player's access token gets a
 * short-lived ticket for one of its owner's game servers, which verifies it offline (docs/game-servers.md), so
 * that the server never holds the player's token. Once the game has authenticated ({@link TokenRequestConverter}
 * refused every client that is not a {@code web}, {@code nativa} or {@code dispositivo} application with the
 * legacy {@code grant_type inválido}; {@link ClientCredentialsChecks}; {@link TicketRequests}), its steps, in
 * order, each with its one refusal:
 * <ol>
 * <li>{@link ClientCredentialsChecks#revokedCheck}: {@code client_revoked}, as for every grant;</li>
 * <li>{@link #audienceCheck}: one {@code audience}, the client_id of a {@code servidor} application of the game's
 * owner, not revoked: else {@code invalid_target};</li>
 * <li>{@link #subjectTokenCheck}: {@code subject_token} is an access token that this service issued to this very
 * game, valid now (not expired, not revoked, of an enabled account): else {@code invalid_grant};</li>
 * <li>{@link #proofCheck}: the request's DPoP proof, when sent or required by the game ({@code dpop_obligatorio}), is
 * valid; a player's token bound to a DPoP key is exchanged only with a proof of that key (decisions §28): else
 * {@code invalid_dpop_proof};</li>
 * <li>{@link #sanctionCheck}: no sanction keeps the player out of this game (one in it, or in every application,
 * decisions §26): else {@code invalid_grant};</li>
 * <li>{@link #signingKeyCheck}: a usable signing key, else {@code server_error} (decisions §7);</li>
 * <li>{@link #issue}: the ticket ({@link TicketGenerator}), answered with
 * {@code issued_token_type} {@code ...:jwt} and {@code token_type} {@code N_A} ({@code error/TokenResponses}).</li>
 * </ol>
 *
 * <p>A hot path (one per match join): no database write (but a DPoP proof's {@code jti}) and, once the game's and the server's applications and
 * the player's token are in their caches, no database read either. The subject token is checked by the same
 * cached lookup as {@code /api/userinfo.php} ({@link ApiTokenValidator#check}): a revocation here is seen at once,
 * on another instance when its cache hears the commit (PostgreSQL NOTIFY, within a second), and the cache's
 * 30-second lifetime is the backstop; its {@code last_used_at} is stamped at most once a minute, as at UserInfo.
 *
 * <p>Spring Authorization Server's {@link OAuth2TokenExchangeAuthenticationProvider} is not used: it looks the
 * subject token up in the {@code OAuth2AuthorizationService} (which here keeps codes only: access tokens are API
 * tokens), does not require it to be the calling client's, issues JWT access tokens only to clients whose access
 * tokens are self-contained, answers {@code token_type} {@code Bearer} and saves an authorization for every
 * exchange (a database write per ticket). This provider takes its request
 * ({@link OAuth2TokenExchangeAuthenticationToken}, from its converter) and its token generator instead.
 */
public final class TicketExchange implements AuthenticationProvider {

    static final String NOT_A_SERVER = "audience debe ser el client_id de una aplicacion de tipo servidor del mismo propietario";
    static final String ONE_SERVER = "Un ticket es para un solo servidor: envia un solo audience";
    static final String BAD_SUBJECT = "subject_token invalido, caducado, revocado o de otra aplicacion";
    static final String NO_KEY = "Sin clave de firma utilizable: no se puede firmar el ticket";

    private final ApiTokenValidator tokens;
    private final RegisteredClientRepository clients;
    private final OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator;
    private final SigningKeys signingKeys;
    private final TokenRequestProofs proofs;
    private final Sanctions sanctions;

    public TicketExchange(ApiTokenValidator tokens, RegisteredClientRepository clients,
            OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator, SigningKeys signingKeys, TokenRequestProofs proofs,
            Sanctions sanctions) {
        this.proofs = proofs;
        this.sanctions = sanctions;
        this.tokens = tokens;
        this.clients = clients;
        this.tokenGenerator = tokenGenerator;
        this.signingKeys = signingKeys;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (OAuth2TokenExchangeAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) request.getPrincipal();
        RegisteredClient game = clientPrincipal.getRegisteredClient();
        ClientCredentialsChecks.revokedCheck(game);
        audienceCheck(request, game);
        TokenOwner player = subjectTokenCheck(request, game);
        proofCheck(request, game, player);
        sanctionCheck(player, game);
        signingKeyCheck();
        OAuth2Token ticket = issue(request, game, player);
        var answer = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, ticket.getTokenValue(),
                ticket.getIssuedAt(), ticket.getExpiresAt());
        return new OAuth2AccessTokenAuthenticationToken(game, clientPrincipal, answer, null,
                Map.of(OAuth2ParameterNames.ISSUED_TOKEN_TYPE, TicketRequests.JWT_TOKEN_TYPE));
    }

    /** One audience: a game server (decisions §21) of the game's owner, not revoked. */
    RegisteredClient audienceCheck(OAuth2TokenExchangeAuthenticationToken request, RegisteredClient game) {
        Set<String> audiences = request.getAudiences();
        if (audiences.size() != 1) {
            throw StandardError.invalidTarget(ONE_SERVER);
        }
        RegisteredClient server = clients.findByClientId(audiences.iterator().next());
        if (server == null || !DatabaseRegisteredClientRepository.isServer(server)
                || DatabaseRegisteredClientRepository.isRevoked(server)
                || DatabaseRegisteredClientRepository.ownerOf(server) != DatabaseRegisteredClientRepository.ownerOf(game)) {
            throw StandardError.invalidTarget(NOT_A_SERVER);
        }
        return server;
    }

    /**
     * The player: the subject token is valid and was issued to this game by one of its grants (not a personal
     * token, not a server's own, not another application's).
     */
    TokenOwner subjectTokenCheck(OAuth2TokenExchangeAuthenticationToken request, RegisteredClient game) {
        ApiTokenValidator.TokenCheck check;
        try {
            check = tokens.check(request.getSubjectToken());
        }
        catch (RuntimeException e) {
            throw TokenError.internal(e);
        }
        TokenOwner owner = check.owner();
        if (owner == null || owner.kind() != TokenKind.OAUTH || !game.getClientId().equals(owner.clientId())) {
            throw StandardError.invalidGrant(BAD_SUBJECT);
        }
        return owner;
    }

    /**
     * The request's proof, when there is one or the game requires one; and a player's token bound to a key comes
     * with a proof of that key (the ticket itself is not bound: a game server checks it offline, once).
     */
    void proofCheck(OAuth2TokenExchangeAuthenticationToken request, RegisteredClient game, TokenOwner player) {
        TokenRequestProofs.sameKey(player.dpopJkt(), proofs.verify(request.getAdditionalParameters(), game));
    }

    /** No sanction keeps the player out of this game now (decisions §26): from the sanctions' cache. */
    void sanctionCheck(TokenOwner player, RegisteredClient game) {
        SanctionCheck.check(sanctions, player.userId(), game.getClientId());
    }

    void signingKeyCheck() {
        if (!signingKeys.canSign()) {
            throw StandardError.noSigningKey(NO_KEY);
        }
    }

    private OAuth2Token issue(OAuth2TokenExchangeAuthenticationToken request, RegisteredClient game, TokenOwner player) {
        OAuth2Token ticket;
        try {
            ticket = tokenGenerator.generate(DefaultOAuth2TokenContext.builder()
                    .registeredClient(game)
                    .principal(new BearerTokenAuthentication(player))
                    .authorizationServerContext(AuthorizationServerContextHolder.getContext())
                    .tokenType(TicketGenerator.TICKET)
                    .authorizationGrantType(AuthorizationGrantType.TOKEN_EXCHANGE)
                    .authorizationGrant(request)
                    .build());
        }
        catch (RuntimeException e) {
            throw TokenError.internal(e); // the signature failed: a 500 that names only the request id
        }
        if (ticket == null) {
            throw TokenError.internal(new IllegalStateException("no generator made the ticket"));
        }
        return ticket;
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2TokenExchangeAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
