package com.example.identity.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;
import com.example.identity.webhooks.Webhooks;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Idle guests (decisions §24): the hourly retention job deletes a guest player whose tokens were not issued for
 * {@code identity.guests.max-idle} (90 days), as decisions §20 deletes any account, and no one else: time moves on the
 * service's clock ({@link MovableClock}), and a guest that plays (each start refreshes its tokens) stays.
 */
@IntegrationTest
class IdleGuestsIT {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    RetentionJob job;

    @Autowired
    MovableClock clock;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    Webhooks webhooks;

    @Autowired
    JdbcTemplate jdbc;

    record Guest(long id, String accessToken, String refreshToken) {
    }

    Guest newGuest(String clientId) {
        var random = ThreadLocalRandom.current();
        HttpResponse<String> made = new WebClient(port).postForm("/oauth/invitado.php", Map.of("client_id", clientId),
                "X-Forwarded-For", "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254)));
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        JsonNode tokens = JSON.readTree(made.body());
        String access = tokens.get("access_token").asString();
        long id = JSON.readTree(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + access).body())
                .get("user").get("id").asLong();
        return new Guest(id, access, tokens.get("refresh_token").asString());
    }

    /** The game starts again: its refresh token for new tokens (rotated). */
    Guest plays(Guest guest, String clientId) {
        HttpResponse<String> refreshed = new WebClient(port).postForm("/oauth/token.php", Map.of("grant_type",
                "refresh_token", "refresh_token", guest.refreshToken(), "client_id", clientId));
        assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
        JsonNode tokens = JSON.readTree(refreshed.body());
        return new Guest(guest.id(), tokens.get("access_token").asString(), tokens.get("refresh_token").asString());
    }

    boolean exists(long userId) {
        return jdbc.queryForObject("select count(*) from users where id = ?", Long.class, userId) == 1;
    }

    @Test
    void aGuestUnusedFor90DaysIsDeletedAsAnyAccountAndAGuestThatPlaysStays() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var game = clients.register(owner, "Juego", "http://127.0.0.1/juego", List.of(), ClientType.NATIVE, null,
                com.example.identity.client.SenderConstraints.NONE, true);
        webhooks.register(game.clientId(), "http://127.0.0.1:9/eventos");
        Guest idle = newGuest(game.clientId());
        Guest player = newGuest(game.clientId());
        long person = accounts.create("Nadie", "inactiva-" + UUID.randomUUID() + "@example.com", "a-password-of-hers",
                Role.USER).getId();

        // the player starts the game every 25 days, within its refresh token's 30
        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofDays(25));
            player = plays(player, game.clientId());
        }
        clock.advance(Duration.ofDays(14)); // 89 days since the idle guest's last use
        job.run();
        assertThat(exists(idle.id())).as("not before 90 days").isTrue();

        clock.advance(Duration.ofDays(2)); // 91 days
        job.run();

        assertThat(exists(idle.id())).isFalse();
        assertThat(jdbc.queryForObject("select count(*) from deleted_users where id = ?", Long.class, idle.id())).isOne();
        for (String table : List.of("guests", "api_tokens", "refresh_tokens", "oauth_authorizations")) {
            assertThat(jdbc.queryForObject("select count(*) from " + table + " where user_id = ?", Long.class, idle.id()))
                    .as(table).isZero();
        }
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'USER_DELETED' and subject = ?",
                Long.class, "usuario #" + idle.id() + " (invitado sin uso)")).isOne();
        // the game hears of it, as of any deletion
        assertThat(jdbc.queryForList("select payload from outbox_messages where message_key = ?", String.class,
                "webhook:" + game.clientId() + ":user:" + idle.id())).anyMatch(p -> p.contains("usuario.eliminado"));
        // the one that plays, and everyone who is no guest, stay
        assertThat(exists(player.id())).isTrue();
        assertThat(exists(person)).isTrue();
        assertThat(plays(player, game.clientId()).id()).isEqualTo(player.id());
    }
}
