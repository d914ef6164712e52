package com.example.identity.mfa;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code segundo_factor}: since when, and the recovery codes' use; never the secret nor a code. */
@Component
class SecondFactorData implements PersonalData {

    private final JdbcTemplate jdbc;

    SecondFactorData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "segundo_factor";
    }

    @Override
    public Set<String> tables() {
        return Set.of("user_totp", "recovery_codes");
    }

    @Override
    public @Nullable Object of(Person person) {
        Map<String, Object> factor = new LinkedHashMap<>();
        List<Map<String, Object>> totp = PersonalData.rows(jdbc, "select created_at from user_totp where user_id = ?",
                person.userId());
        factor.put("totp", totp.isEmpty() ? null : totp.get(0));
        factor.put("codigos_de_recuperacion", PersonalData.rows(jdbc, "select created_at, used_at from recovery_codes "
                + "where user_id = ? order by id", person.userId()));
        return factor;
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from recovery_codes where user_id = ?", person.userId());
        jdbc.update("delete from user_totp where user_id = ?", person.userId());
    }
}
