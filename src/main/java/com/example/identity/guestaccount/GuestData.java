package com.example.identity.guestaccount;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code invitado} (decisions §24): what was kept of the account while it was a guest. */
@Component
class GuestData implements PersonalData {

    private final Guests guests;

    GuestData(Guests guests) {
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
}
