package com.example.identity.deviceflow;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code dispositivos}: the device flow's runs the person decided, never a code. */
@Component
class DeviceData implements PersonalData {

    private final JdbcTemplate jdbc;

    DeviceData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "dispositivos";
    }

    @Override
    public Set<String> tables() {
        return Set.of("device_authorizations");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select client_id, scopes, status as estado, created_at, decided_at from "
                + "device_authorizations where user_id = ? order by created_at", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from device_authorizations where user_id = ?", person.userId());
    }
}
