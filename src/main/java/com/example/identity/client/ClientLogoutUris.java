package com.example.identity.client;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code post_logout_redirect_uri}s of each application (decisions §12.7, migration V19): where
 * {@code /oauth/logout.php} may send a browser back after ending its session. Read at a logout, and to
 * show them (dashboard, admin page, {@code /api/clients/*}), so not cached. Always in the order of the
 * addresses themselves.
 */
@Repository
public class ClientLogoutUris {

    /** At most this many per application. */
    public static final int MAX = 5;

    private final JdbcTemplate jdbc;

    ClientLogoutUris(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void add(String clientId, Collection<String> uris) {
        for (String uri : uris) {
            jdbc.update("insert into oauth_client_logout_uris (client_id, uri) values (?, ?)", clientId, uri);
        }
    }

    /** Whether {@code uri} is, byte for byte, one that {@code clientId} registered. */
    public boolean isRegistered(String clientId, String uri) {
        Integer found = jdbc.queryForObject(
                "select count(*) from oauth_client_logout_uris where client_id = ? and uri = ?", Integer.class,
                clientId, uri);
        return found != null && found > 0;
    }

    public List<String> of(String clientId) {
        return jdbc.queryForList("select uri from oauth_client_logout_uris where client_id = ? order by uri",
                String.class, clientId);
    }

    /**
     * Those of each of {@code clientIds} (a page of a list: at most a few hundred), in one query per 500; an
     * application without any maps to an empty list.
     */
    public Map<String, List<String>> of(Collection<String> clientIds) {
        Map<String, List<String>> uris = new LinkedHashMap<>();
        List<String> ids = List.copyOf(new LinkedHashSet<>(clientIds));
        ids.forEach(id -> uris.put(id, new ArrayList<>()));
        for (int from = 0; from < ids.size(); from += 500) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + 500));
            jdbc.query("select client_id, uri from oauth_client_logout_uris where client_id in ("
                    + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?")) + ") order by client_id, uri",
                    rs -> {
                        uris.get(rs.getString(1)).add(rs.getString(2));
                    }, chunk.toArray());
        }
        return uris;
    }
}
