package com.example.identity.passkey;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code llaves_acceso}: each passkey by its id and name, never its public key. */
@Component
class PasskeyData implements PersonalData {

    private final Passkeys passkeys;

    PasskeyData(Passkeys passkeys) {
        this.passkeys = passkeys;
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
}
