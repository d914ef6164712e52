package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.common.CacheInvalidation;
import com.example.identity.oauth.token.RefreshTokenExchange;
import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * What a sanction does at the authorization server (decisions §26): one in an application sends that application's
 * authorization requests back with {@code access_denied} (and {@code state}) and refuses its refresh, device code and
 * ticket grants with {@code invalid_grant}, its tokens revoked; other applications go on as before; the approval at
 * {@code /activar} shows why and until when; at its {@code hasta} every one of them works again by itself.
 */
class SanctionedGrantsIT extends OAuthTestBase {

    static final String SUSPENDED = "La cuenta esta suspendida en esta aplicacion";

    @Autowired
    SanctionService sanctions;

    @Autowired
    CacheInvalidation invalidation;

    @Autowired
    MovableClock clock;

    Sanctioner owner;
    ClientService.NewCredentials game;
    ClientService.NewCredentials other;
    ClientService.NewCredentials server;
    User player;

    @BeforeEach
    void aDevelopersGamesAndAPlayer() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        owner = Sanctioner.of(new Caller(dev, false));
        game = newClient();
        other = newClient();
        server = clients.register(dev, "Servidor de partidas", null, List.of(), ClientType.SERVER);
        player = newLoggedInUser("Paula");
    }

    JsonNode tokens(ClientService.NewCredentials app) {
        HttpResponse<String> answer = exchange(app, authorize(player.browser(), app, "openid offline_access"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json(answer);
    }

    Sanction sanctionInGame(Duration lasting) {
        return sanctions.place(owner, player.id(), "Trampas en la partida", clock.instant().plus(lasting), game.clientId());
    }

    /**
     * A sanction that did not revoke anything: what another instance meets in the second before it hears of one (a
     * code it issued then, exchanged for tokens), here written directly, and the person's cached sanctions evicted.
     */
    Instant sanctionWithoutRevoking(ClientService.NewCredentials app, Duration lasting) {
        Instant hasta = clock.instant().plus(lasting).truncatedTo(ChronoUnit.SECONDS);
        jdbc.update("insert into sanctions (user_id, motivo, hasta, client_id, placed_by, created_at) values (?, ?, ?, ?, ?, ?)",
                player.id(), "Trampas", Timestamp.from(hasta), app.clientId(), owner.userId(), Timestamp.from(clock.instant()));
        invalidation.evict("sanctions", Long.toString(player.id()));
        return hasta;
    }

    static void assertInvalidGrant(HttpResponse<String> response, String description) {
        RefreshTokenIT.assertStandardError(response, 400, "invalid_grant", description);
    }

    @Test
    void aSanctionInOneApplicationSendsItsAuthorizationRequestsBackWithAccessDeniedAndLeavesTheOthersAlone() {
        JsonNode before = tokens(game);
        JsonNode elsewhere = tokens(other);

        Sanction placed = sanctionInGame(Duration.ofDays(7));

        HttpResponse<String> refused = player.browser().get(authorizeUrl(game, "openid", Map.of("state", "st-1")));
        assertThat(refused.statusCode()).isEqualTo(302);
        var query = UriComponentsBuilder.fromUriString(WebClient.location(refused)).build().getQueryParams();
        assertThat(WebClient.location(refused)).startsWith(game.redirectUri() + "?error=access_denied&");
        // the game learns until when, which it could not ask: it does not know who was refused
        assertThat(org.springframework.web.util.UriUtils.decode(query.getFirst("error_description"),
                java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(SUSPENDED + " hasta " + placed.hasta());
        assertThat(query.getFirst("state")).isEqualTo("st-1");
        assertThat(query.getFirst("code")).isNull();
        // the game's tokens are revoked; the other application's still work, and it logs the person in
        assertThat(RefreshTokenIT.apiStatus(before.get("access_token").asString())).isEqualTo(401);
        assertInvalidGrant(RefreshTokenIT.refresh(game, before.get("refresh_token").asString()), RefreshTokenExchange.INVALID);
        assertThat(RefreshTokenIT.apiStatus(elsewhere.get("access_token").asString())).isEqualTo(200);
        assertThat(RefreshTokenIT.refresh(other, elsewhere.get("refresh_token").asString()).statusCode()).isEqualTo(200);
        assertThat(exchange(other, authorize(player.browser(), other, "openid")).statusCode()).isEqualTo(200);
        assertThat(player.browser().get("/cuenta/").statusCode()).as("the session stays").isEqualTo(200);
    }

    @Test
    void theRefreshAndTicketGrantsRefuseWhileItLastsEvenATokenThatOutlivedTheRevocation() {
        JsonNode before = tokens(game);
        JsonNode elsewhere = tokens(other);
        String access = before.get("access_token").asString();
        assertThat(TicketExchangeIT.askTicket(game, access, server.clientId()).statusCode()).isEqualTo(200);

        Instant hasta = sanctionWithoutRevoking(game, Duration.ofMinutes(10));

        assertInvalidGrant(TicketExchangeIT.askTicket(game, access, server.clientId()), SUSPENDED + " hasta " + hasta);
        assertInvalidGrant(RefreshTokenIT.refresh(game, before.get("refresh_token").asString()), SUSPENDED + " hasta " + hasta);
        assertThat(TicketExchangeIT.askTicket(other, elsewhere.get("access_token").asString(), server.clientId())
                .statusCode()).isEqualTo(200);

        // ten minutes later the sanction has ended by itself: the same tokens work again
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        assertThat(TicketExchangeIT.askTicket(game, access, server.clientId()).statusCode()).isEqualTo(200);
        assertThat(RefreshTokenIT.refresh(game, before.get("refresh_token").asString()).statusCode()).isEqualTo(200);
    }

    @Test
    void aTicketForASanctionedPlayersRevokedTokenIsRefused() {
        String access = tokens(game).get("access_token").asString();

        sanctionInGame(Duration.ofHours(1));

        assertInvalidGrant(TicketExchangeIT.askTicket(game, access, server.clientId()), TicketExchangeIT.BAD_SUBJECT);
    }

    @Test
    void aConsoleApprovedBeforeTheSanctionGetsInvalidGrantAndActivarShowsWhyAndUntilWhen() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var console = clients.register(dev, "Consola", null, List.of(), ClientType.DEVICE);
        JsonNode started = json(DeviceFlowIT.start(console.clientId(), "openid"));
        String userCode = started.get("user_code").asString();
        assertThat(DeviceFlowIT.activar(player.browser(), userCode, "allow").statusCode()).isEqualTo(200);

        Sanction placed = sanctions.place(owner, player.id(), "Trampas en la consola", null, console.clientId());

        DeviceFlowIT.assertError(DeviceFlowIT.poll(console.clientId(), started.get("device_code").asString()), 400,
                "invalid_grant", SUSPENDED + " de forma permanente");
        JsonNode again = json(DeviceFlowIT.start(console.clientId(), "openid"));
        HttpResponse<String> page = DeviceFlowIT.activar(player.browser(), again.get("user_code").asString(), null);
        assertThat(page.statusCode()).isEqualTo(403);
        assertThat(page.body()).contains("id=\"suspended\"")
                .contains("Tu cuenta está suspendida en esta aplicación de forma permanente.")
                .contains("<strong>Trampas en la consola</strong>").doesNotContain("id=\"activate-decision\"");
        HttpResponse<String> english = DeviceFlowIT.activar(player.browser(), again.get("user_code").asString(), null,
                "Accept-Language", "en");
        assertThat(english.body()).contains("Your account is suspended in this application permanently.")
                .contains("Reason:");

        sanctions.lift(owner, placed.id());
        assertThat(DeviceFlowIT.activar(player.browser(), again.get("user_code").asString(), "allow").statusCode())
                .isEqualTo(200);
    }

    @Test
    void aGlobalSanctionEndsTheSessionSoTheAuthorizationRequestAsksForALoginThatIsRefused() {
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        JsonNode before = tokens(game);

        sanctions.place(Sanctioner.of(new Caller(admin, true)), player.id(), "Suspendida", clock.instant()
                .plus(Duration.ofDays(30)), null);

        HttpResponse<String> authorize = player.browser().get(authorizeUrl(game, "openid", Map.of("state", "st-2")));
        assertThat(WebClient.location(authorize)).startsWith("/login/?redirect=");
        assertThat(WebClient.location(player.browser().login(player.email(), "correct-password-123",
                authorizeUrl(game, "openid", Map.of("state", "st-2"))))).startsWith("/login/?suspendida=1&redirect=");
        assertInvalidGrant(RefreshTokenIT.refresh(game, before.get("refresh_token").asString()), RefreshTokenExchange.INVALID);
        assertThat(RefreshTokenIT.apiStatus(before.get("access_token").asString())).isEqualTo(401);
    }
}
