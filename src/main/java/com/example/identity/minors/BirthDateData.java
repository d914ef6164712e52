package com.example.identity.minors;

import java.time.LocalDate;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code fecha_nacimiento} (decisions §27): {@code YYYY-MM-DD}, or null; no application ever sees it. */
@Component
class BirthDateData implements PersonalData {

    private final BirthDates birthDates;
    private final JdbcTemplate jdbc;

    BirthDateData(BirthDates birthDates, JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.birthDates = birthDates;
    }

    @Override
    public String section() {
        return BirthDates.FIELD;
    }

    @Override
    public Set<String> tables() {
        return Set.of("birth_dates");
    }

    @Override
    public @Nullable Object of(Person person) {
        return birthDates.of(person.userId()).map(LocalDate::toString).orElse(null);
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from birth_dates where user_id = ?", person.userId());
    }
}
