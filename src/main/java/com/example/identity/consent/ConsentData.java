package com.example.identity.consent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.client.ClientService;
import com.example.identity.client.OAuthClient;
import com.example.identity.common.PersonalData;

/** The download's {@code consentimientos}: each consent given, with its application's name (asked of client/). */
@Component
class ConsentData implements PersonalData {

    private final JdbcTemplate jdbc;
    private final ClientService clients;

    ConsentData(JdbcTemplate jdbc, ClientService clients) {
        this.jdbc = jdbc;
        this.clients = clients;
    }

    @Override
    public String section() {
        return "consentimientos";
    }

    @Override
    public Set<String> tables() {
        return Set.of("oauth_consents");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select client_id, scopes, granted_at from oauth_consents where user_id = ? "
                + "order by id", person.userId()).stream().map(consent -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    String clientId = (String) consent.get("client_id");
                    row.put("client_id", clientId);
                    row.put("aplicacion", clients.findByClientId(clientId).map(OAuthClient::getName).orElse(null));
                    row.put("scopes", consent.get("scopes"));
                    row.put("granted_at", consent.get("granted_at"));
                    return row;
                }).toList();
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from oauth_consents where user_id = ?", person.userId());
    }
}
