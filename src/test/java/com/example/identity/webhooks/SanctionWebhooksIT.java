package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientType;
import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;

/**
 * Sanctions reach the applications concerned as Standard Webhooks (decisions §26), each checked by the receiver with
 * the specification's Java library: one in a game goes to that game and its owner's server, not to another owner's
 * application the player also used; a global one to every application the player used; each lift, early or by itself
 * at its {@code hasta} (told by the job on a moved clock), to the same applications, in order with the rest of the
 * person's events.
 */
class SanctionWebhooksIT extends WebhookTestBase {

    @Autowired
    SanctionService sanctions;

    static String data(Sanction s) {
        return "{\"id\":" + s.userId() + ",\"sub\":\"user:" + s.userId() + "\",\"sancion_id\":" + s.id() + ",\"motivo\":\""
                + s.motivo() + "\",\"hasta\":" + (s.hasta() == null ? "null" : "\"" + s.hasta() + "\"") + ",\"client_id\":"
                + (s.clientId() == null ? "null" : "\"" + s.clientId() + "\"") + "}";
    }

    @Test
    void theApplicationsConcernedHearOfEachSanctionItsEarlyLiftAndItsEnd() throws Exception {
        int port = freePort();
        receiver = new Receiver(port);
        App game = newApp(ClientType.WEB, port, "/juego");
        App backEnd = newApp(game.owner(), ClientType.SERVER, port, "/servidor");
        App shop = newApp(ClientType.WEB, port, "/tienda"); // another owner's, which the player used too
        App unused = newApp(ClientType.WEB, port, "/ajena");
        long player = userOf(game);
        consents.grant(player, shop.clientId(), Set.of("openid"));
        Sanctioner owner = Sanctioner.of(new Caller(game.owner(), false));

        Sanction inGame = sanctions.place(owner, player, "Aimbot", clock.instant().plus(Duration.ofDays(7)), game.clientId());
        sanctions.lift(owner, inGame.id());
        // a minute: the moved clock stamps the deliveries too, and the receiver's library takes 5 minutes of skew
        Instant end = clock.instant().plus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.SECONDS);
        Sanction everywhere = sanctions.place(Sanctioner.of(new Caller(adminId(), true)), player, "Acoso", end, null);
        assertThat(everywhere.hasta()).isEqualTo(end);
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.at("/tienda").size() >= 1
                && receiver.at("/juego").size() >= 3 && receiver.at("/servidor").size() >= 3);

        clock.advance(Duration.ofMinutes(1).plusSeconds(1));

        // the job tells the end (identity.sanctions.end-check: 1s in the tests)
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.at("/tienda").size() >= 2
                && receiver.at("/juego").size() >= 4 && receiver.at("/servidor").size() >= 4);
        for (String path : List.of("/juego", "/servidor")) {
            List<Receiver.Received> got = receiver.at(path);
            assertThat(got).hasSize(4).allMatch(Receiver.Received::verified);
            assertThat(got).extracting(Receiver.Received::type).containsExactly("usuario.sancionado",
                    "usuario.sancion_levantada", "usuario.sancionado", "usuario.sancion_levantada");
            assertThat(got.get(0).data().toString()).isEqualTo(data(inGame));
            assertThat(got.get(1).data().toString()).isEqualTo(data(inGame));
            assertThat(got.get(2).data().toString()).isEqualTo(data(everywhere));
            assertThat(got.get(3).data().toString()).isEqualTo(data(everywhere));
            assertThat(got).extracting(Receiver.Received::webhookId).doesNotHaveDuplicates();
        }
        List<Receiver.Received> atShop = receiver.at("/tienda");
        assertThat(atShop).hasSize(2).allMatch(Receiver.Received::verified);
        assertThat(atShop).extracting(Receiver.Received::type).containsExactly("usuario.sancionado",
                "usuario.sancion_levantada");
        assertThat(atShop.get(0).data().toString()).isEqualTo(data(everywhere));
        assertThat(receiver.at("/ajena")).isEmpty();
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'SANCTION_ENDED' and subject like ?",
                Long.class, "sanción #" + everywhere.id() + " %")).isEqualTo(1);
        assertThat(jdbc.queryForObject("select end_told_at from sanctions where id = ?", java.sql.Timestamp.class,
                everywhere.id())).isNotNull();
    }
}
