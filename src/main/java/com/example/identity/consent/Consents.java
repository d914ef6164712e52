package com.example.identity.consent;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientDirectory;

/**
 * The consents users give to third-party applications (decisions §12.6), in {@code oauth_consents}: one
 * row per user and application with every scope granted so far. A consent covers a request when it holds
 * every scope asked for; withdrawing it deletes the row and revokes the application's tokens for that user
 * (access and refresh), on every instance at commit.
 */
@Component
public class Consents {

    private final JdbcTemplate jdbc;
    private final ConsentTokens tokens;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final ClientDirectory clients;

    Consents(JdbcTemplate jdbc, ConsentTokens tokens, ApplicationEventPublisher events, Clock clock,
            ClientDirectory clients) {
        this.clients = clients;
        this.jdbc = jdbc;
        this.tokens = tokens;
        this.events = events;
        this.clock = clock;
    }

    /** Whether {@code userId} already granted {@code clientId} every one of {@code scopes}. */
    @Transactional(readOnly = true)
    public boolean covers(long userId, String clientId, Set<String> scopes) {
        List<String> granted = jdbc.queryForList("select scopes from oauth_consents where user_id = ? and client_id = ?",
                String.class, userId, clientId);
        return !granted.isEmpty() && words(granted.get(0)).containsAll(scopes);
    }

    /** Records that {@code userId} granted {@code scopes} to {@code clientId}, adding them to any earlier grant. */
    @Transactional
    public void grant(long userId, String clientId, Set<String> scopes) {
        Timestamp now = Timestamp.from(clock.instant());
        List<String> granted = jdbc.queryForList(
                "select scopes from oauth_consents where user_id = ? and client_id = ? for update", String.class, userId,
                clientId);
        Set<String> all = new LinkedHashSet<>(granted.isEmpty() ? Set.of() : words(granted.get(0)));
        all.addAll(scopes);
        String joined = String.join(" ", all);
        if (granted.isEmpty()) {
            try {
                jdbc.update("insert into oauth_consents (user_id, client_id, scopes, granted_at) values (?, ?, ?, ?)",
                        userId, clientId, joined, now);
            }
            catch (DuplicateKeyException concurrent) {
                // the same consent given at the same time from another tab or instance: add to it
                jdbc.update("update oauth_consents set scopes = ?, granted_at = ? where user_id = ? and client_id = ?",
                        joined, now, userId, clientId);
            }
        }
        else {
            jdbc.update("update oauth_consents set scopes = ?, granted_at = ? where user_id = ? and client_id = ?",
                    joined, now, userId, clientId);
        }
        events.publishEvent(new AuditEvent(AuditEvent.Type.CONSENT_GIVEN,
                clientId + " de usuario #" + userId + ": " + String.join(" ", scopes)));
    }

    /** A consent as the account page lists it. */
    public record Given(String clientId, String clientName, List<String> scopes, Instant grantedAt) {
    }

    /** The consents of {@code userId}, newest first. */
    @Transactional(readOnly = true)
    public List<Given> of(long userId) {
        List<Given> given = jdbc.query("select client_id, scopes, granted_at from oauth_consents where user_id = ? "
                + "order by granted_at desc, id desc", (rs, i) -> new Given(rs.getString(1), null,
                        List.copyOf(words(rs.getString(2))), rs.getTimestamp(3).toInstant()), userId);
        // the applications' names from client/ (an application gone from oauth_clients is not listed)
        Map<String, String> names = clients.names(given.stream().map(Given::clientId).toList());
        return given.stream().filter(g -> names.containsKey(g.clientId()))
                .map(g -> new Given(g.clientId(), names.get(g.clientId()), g.scopes(), g.grantedAt())).toList();
    }

    /**
     * Withdraws {@code userId}'s consent to {@code clientId} and revokes every token that application holds
     * for them ({@link ConsentTokens#revokeFamilies}: a refresh in flight finishes first, and its new tokens
     * are revoked too). The next authorization request of that application shows the consent page again.
     *
     * @return false when there was no such consent
     */
    @Transactional
    public boolean withdraw(long userId, String clientId) {
        int deleted = jdbc.update("delete from oauth_consents where user_id = ? and client_id = ?", userId, clientId);
        if (deleted == 0) {
            return false;
        }
        int revoked = tokens.revokeFamilies(clientId, userId);
        events.publishEvent(new AuditEvent(AuditEvent.Type.CONSENT_WITHDRAWN,
                clientId + " de usuario #" + userId + "; tokens revocados: " + revoked));
        return true;
    }

    static Set<String> words(String value) {
        return value == null || value.isBlank() ? Set.of() : new LinkedHashSet<>(Arrays.asList(value.trim().split(" +")));
    }
}
