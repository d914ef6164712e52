package com.example.identity.federation;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code cuentas_vinculadas}: the identities of other providers linked to the account. */
@Component
class LinkedIdentityData implements PersonalData {

    private final JdbcTemplate jdbc;

    LinkedIdentityData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "cuentas_vinculadas";
    }

    @Override
    public Set<String> tables() {
        return Set.of("linked_identities");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select provider as proveedor, subject as identificador, linked_at, last_used_at "
                + "from linked_identities where user_id = ? order by id", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from linked_identities where user_id = ?", person.userId());
    }
}
