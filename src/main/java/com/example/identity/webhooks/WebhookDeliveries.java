package com.example.identity.webhooks;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Each attempt to deliver a webhook ({@code webhook_deliveries}, V49), for the dashboard: the newest {@link #KEPT}
 * per application are kept, older ones go as new ones come.
 */
@Component
class WebhookDeliveries {

    static final int KEPT = 100;

    /**
     * How an attempt went: a 2xx answer, another answer, none (no connection, the timeout), or nothing sent because
     * the address resolved to a local or private one (outbound/ReceiverAddresses).
     */
    enum Outcome {
        DELIVERED("entregado"), REFUSED("rechazado"), NO_ANSWER("sin respuesta"), FORBIDDEN("dirección prohibida");

        final String value;

        Outcome(String value) {
            this.value = value;
        }
    }

    private final JdbcTemplate jdbc;
    private final Clock clock;

    WebhookDeliveries(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    void record(String clientId, String webhookId, String eventType, int attempt, Outcome outcome, Integer httpStatus) {
        jdbc.update("insert into webhook_deliveries (client_id, webhook_id, event_type, attempt, outcome, http_status, "
                + "attempted_at) values (?, ?, ?, ?, ?, ?, ?)", clientId, webhookId, eventType, attempt, outcome.value,
                httpStatus, Timestamp.from(clock.instant()));
        jdbc.update("delete from webhook_deliveries where client_id = ? and id <= (select id from webhook_deliveries "
                + "where client_id = ? order by id desc offset " + KEPT + " rows fetch next 1 rows only)", clientId, clientId);
    }

    /** The newest {@code limit} attempts of {@code clientId}, newest first. */
    List<Webhooks.Attempt> newest(String clientId, int limit) {
        return jdbc.query("select webhook_id, event_type, attempt, outcome, http_status, attempted_at from webhook_deliveries "
                + "where client_id = ? order by id desc fetch first " + limit + " rows only",
                (rs, i) -> new Webhooks.Attempt(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4),
                        rs.getObject(5, Integer.class), rs.getTimestamp(6).toInstant()),
                clientId);
    }
}
