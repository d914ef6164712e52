package com.example.identity.client;

import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code post_logout_redirect_uri}s of each application (decisions §12.7, migration V19): where
 * {@code /oauth/logout.php} may send a browser back after ending its session. Read only at a logout, so
 * not cached.
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
}
