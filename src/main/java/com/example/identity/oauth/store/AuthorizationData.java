package com.example.identity.oauth.store;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code autorizaciones}: the person's authorizations, never a code or its digest. */
@Component
class AuthorizationData implements PersonalData {

    private final JdbcTemplate jdbc;

    AuthorizationData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "autorizaciones";
    }

    @Override
    public Set<String> tables() {
        return Set.of("oauth_authorizations");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select client_id, scopes, auth_time, amr, code_issued_at from oauth_authorizations "
                + "where user_id = ? order by code_issued_at", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from oauth_authorizations where user_id = ?", person.userId());
    }
}
