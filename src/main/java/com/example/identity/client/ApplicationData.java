package com.example.identity.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/**
 * The download's {@code aplicaciones}: the applications the person registered, with their addresses after logout
 * and their webhook's address (asked of webhooks/ through {@link ApplicationWebhooks}); never a secret.
 */
@Component
class ApplicationData implements PersonalData {

    private final JdbcTemplate jdbc;
    private final ApplicationWebhooks webhooks;

    ApplicationData(JdbcTemplate jdbc, ApplicationWebhooks webhooks) {
        this.jdbc = jdbc;
        this.webhooks = webhooks;
    }

    @Override
    public String section() {
        return "aplicaciones";
    }

    @Override
    public Set<String> tables() {
        return Set.of("oauth_clients", "oauth_client_logout_uris");
    }

    @Override
    public @Nullable Object of(Person person) {
        List<Map<String, Object>> applications = PersonalData.rows(jdbc, "select client_id, name as nombre, redirect_uri, "
                + "client_type as tipo, first_party as primera_parte, created_at, secret_rotated_at, revoked_at "
                + "from oauth_clients where owner_id = ? order by id", person.userId());
        Map<String, String> urls = webhooks.urls(applications.stream().map(a -> (String) a.get("client_id")).toList());
        return applications.stream().map(application -> {
            Map<String, Object> row = new LinkedHashMap<>();
            application.forEach((name, value) -> {
                if (name.equals("created_at")) {
                    row.put("webhook_url", urls.get((String) application.get("client_id")));
                }
                row.put(name, value);
            });
            row.put("post_logout_redirect_uris", jdbc.queryForList("select uri from oauth_client_logout_uris "
                    + "where client_id = ? order by uri", String.class, application.get("client_id")));
            return row;
        }).toList();
    }

    /** The applications the person owns (revoked first, {@code OwnedClientsOfDeletedAccount}), their webhooks first. */
    @Override
    public void forget(Person person) {
        List<String> owned = jdbc.queryForList("select client_id from oauth_clients where owner_id = ?", String.class,
                person.userId());
        if (owned.isEmpty()) {
            return;
        }
        webhooks.forget(owned);
        for (String clientId : owned) {
            jdbc.update("delete from oauth_client_logout_uris where client_id = ?", clientId);
        }
        jdbc.update("delete from oauth_clients where owner_id = ?", person.userId());
    }
}
