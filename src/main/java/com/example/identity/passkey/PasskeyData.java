package com.example.identity.passkey;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/**
 * The download's {@code llaves_acceso}: each passkey by its id and name, never its public key; at the account's
 * deletion its passkeys go (Spring Security's WebAuthn tables, keyed by the login name).
 */
@Component
class PasskeyData implements PersonalData {

    private final Passkeys passkeys;
    private final JdbcTemplate jdbc;

    PasskeyData(Passkeys passkeys, JdbcTemplate jdbc) {
        this.passkeys = passkeys;
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "llaves_acceso";
    }

    @Override
    public Set<String> tables() {
        return Set.of("user_entities", "user_credentials");
    }

    @Override
    public @Nullable Object of(Person person) {
        if (person.correo() == null) {
            return java.util.List.of();
        }
        return passkeys.of(person.correo()).stream().map(p -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", p.id());
            row.put("nombre", p.label());
            row.put("creada", p.created() == null ? null : p.created().toString());
            row.put("ultimo_uso", p.lastUsed() == null ? null : p.lastUsed().toString());
            return row;
        }).toList();
    }

    @Override
    public void forget(Person person) {
        if (person.correo() == null) {
            return; // a guest has no address, so no passkey
        }
        jdbc.update("delete from user_credentials where user_entity_user_id in "
                + "(select id from user_entities where name = ?)", person.correo());
        jdbc.update("delete from user_entities where name = ?", person.correo());
    }
}
