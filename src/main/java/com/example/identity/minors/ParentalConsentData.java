package com.example.identity.minors;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/**
 * The download's {@code consentimiento_parental} (decisions §27): {@code estado}, {@code correo_tutor}, {@code pedido},
 * {@code respondido}; null for anyone who needed none. Not the links' digests.
 */
@Component
class ParentalConsentData implements PersonalData {

    private final ParentalConsents consents;
    private final JdbcTemplate jdbc;

    ParentalConsentData(ParentalConsents consents, JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.consents = consents;
    }

    @Override
    public String section() {
        return "consentimiento_parental";
    }

    @Override
    public Set<String> tables() {
        return Set.of("parental_consents");
    }

    @Override
    public @Nullable Object of(Person person) {
        return consents.of(person.userId()).map(consent -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("estado", consent.estado());
            row.put(ParentalConsents.FIELD, consent.correoTutor());
            row.put("pedido", consent.requestedAt().toString());
            row.put("respondido", consent.decidedAt() == null ? null : consent.decidedAt().toString());
            return row;
        }).orElse(null);
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from parental_consents where user_id = ?", person.userId());
    }
}
