package com.example.identity.guestaccount;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code invitado} (decisions §24): what was kept of the account while it was a guest. */
@Component
class GuestData implements PersonalData {

    private final Guests guests;
    private final JdbcTemplate jdbc;

    GuestData(Guests guests, JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.guests = guests;
    }

    @Override
    public String section() {
        return "invitado";
    }

    @Override
    public Set<String> tables() {
        return Set.of("guests", "guest_conversions");
    }

    @Override
    public @Nullable Object of(Person person) {
        return guests.personalData(person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from guest_conversions where user_id = ?", person.userId());
        jdbc.update("delete from guests where user_id = ?", person.userId());
    }
}
