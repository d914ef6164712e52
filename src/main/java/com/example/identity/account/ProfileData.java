package com.example.identity.account;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code perfil}: the account's row, never its password hash. */
@Component
class ProfileData implements PersonalData {

    private final JdbcTemplate jdbc;

    ProfileData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "perfil";
    }

    @Override
    public Set<String> tables() {
        return Set.of("users");
    }

    @Override
    public @Nullable Object of(Person person) {
        var profile = PersonalData.rows(jdbc, "select id, primer_nombre, correo, email_verified as correo_verificado, "
                + "rol, enabled as activa, password_change_required as cambio_de_contrasena_pedido, created_at, updated_at "
                + "from users where id = ?", person.userId());
        return profile.isEmpty() ? null : profile.get(0);
    }

    @Override
    public void forget(Person person) {
        // the users row goes last, deleted by account/AccountDeletion itself
    }
}
