package com.example.identity.client;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * What other features ask of {@code oauth_clients} (issue 41: client/ alone names it), read-only: whether an
 * application is live, which applications are concerned by what happens to a person in others (decisions §21,
 * D36: the applications themselves while not revoked, and the {@code servidor} applications, not revoked, of their
 * owners, so a game's back end hears about the players of its game's launcher, console or web site), their names,
 * their back-channel logout addresses.
 */
@Component
public class ClientDirectory {

    private final JdbcTemplate jdbc;

    ClientDirectory(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Whether {@code clientId} is registered and not revoked. */
    public boolean active(String clientId) {
        return !jdbc.queryForList("select client_id from oauth_clients where client_id = ? and revoked_at is null",
                String.class, clientId).isEmpty();
    }

    /** Those of {@code clientIds} not revoked, and the {@code servidor} applications not revoked of their owners. */
    public Set<String> withTheirOwnersServers(Collection<String> clientIds) {
        Set<String> concerned = new TreeSet<>();
        if (clientIds.isEmpty()) {
            return concerned;
        }
        String marks = marks(clientIds);
        Object[] args = new Object[clientIds.size() * 2];
        int i = 0;
        for (int round = 0; round < 2; round++) {
            for (String clientId : clientIds) {
                args[i++] = clientId;
            }
        }
        concerned.addAll(jdbc.queryForList("select c.client_id from oauth_clients c where c.revoked_at is null and "
                + "(c.client_id in (" + marks + ") or (c.client_type = 'servidor' and c.owner_id in "
                + "(select o.owner_id from oauth_clients o where o.client_id in (" + marks + "))))", String.class, args));
        return concerned;
    }

    /** The name of each of {@code clientIds} that is registered (revoked or not). */
    public Map<String, String> names(Collection<String> clientIds) {
        Map<String, String> names = new LinkedHashMap<>();
        if (!clientIds.isEmpty()) {
            jdbc.query("select client_id, name from oauth_clients where client_id in (" + marks(clientIds) + ")",
                    rs -> {
                        names.put(rs.getString(1), rs.getString(2));
                    }, clientIds.toArray());
        }
        return names;
    }

    /** The back-channel logout address of each of {@code clientIds} that has one and is not revoked. */
    public Map<String, String> backChannelLogoutUris(Collection<String> clientIds) {
        Map<String, String> uris = new LinkedHashMap<>();
        if (!clientIds.isEmpty()) {
            jdbc.query("select client_id, backchannel_logout_uri from oauth_clients where client_id in ("
                    + marks(clientIds) + ") and backchannel_logout_uri is not null and revoked_at is null", rs -> {
                        uris.put(rs.getString(1), rs.getString(2));
                    }, clientIds.toArray());
        }
        return uris;
    }

    private static String marks(Collection<String> values) {
        return String.join(", ", Collections.nCopies(values.size(), "?"));
    }
}
