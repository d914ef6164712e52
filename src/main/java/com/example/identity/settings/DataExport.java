package com.example.identity.settings;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.common.PersonalData;

/**
 * Everything stored about a person (decisions §20, GDPR art. 15 and 20), as the JSON of {@code /cuenta/datos}:
 * one section per kind of record, in the order of {@link #SECTIONS}, each filled by the feature that owns its rows
 * (a {@link PersonalData} of that feature's, collected here as the retention job collects each feature's purge),
 * never a secret, a digest or key material (no password hash, no token or code digest, no TOTP secret, no passkey
 * public key, no session id). {@link #tables()} says which section holds each table; DataExportIT fails when a
 * table refers to {@code users} and is not in it.
 */
@Component
class DataExport {

    /** The download's sections, in its order; {@code perfil} first, whose address the sessions and passkeys need. */
    static final List<String> SECTIONS = List.of("perfil", "tokens_api", "aplicaciones", "autorizaciones",
            "refresh_tokens", "consentimientos", "dispositivos", "recuperaciones_contrasena", "segundo_factor",
            "cambios_correo", "sesiones", "llaves_acceso", "invitado", "cuentas_vinculadas", "sanciones",
            "fecha_nacimiento", "consentimiento_parental", "eventos_auditoria");

    private final Map<String, PersonalData> parts = new LinkedHashMap<>();
    private final Clock clock;

    DataExport(List<PersonalData> parts, Clock clock) {
        this.clock = clock;
        Map<String, PersonalData> bySection = new TreeMap<>();
        for (PersonalData part : parts) {
            if (bySection.put(part.section(), part) != null || !SECTIONS.contains(part.section())) {
                throw new IllegalStateException("a second or unknown section of the data download: " + part.section());
            }
        }
        for (String section : SECTIONS) {
            PersonalData part = bySection.get(section);
            if (part == null) {
                throw new IllegalStateException("no feature fills the data download's section " + section);
            }
            this.parts.put(section, part);
        }
    }

    /** Each table that holds something about the person, and the section of the download that shows it. */
    Map<String, String> tables() {
        Map<String, String> tables = new TreeMap<>();
        parts.forEach((section, part) -> part.tables().forEach(table -> tables.put(table, section)));
        return tables;
    }

    /** The download of account {@code userId}, {@code currentSessionId} marked as the current session. */
    @Transactional(readOnly = true)
    Map<String, Object> of(long userId, @Nullable String currentSessionId) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("generado", clock.instant().toString());
        if (!(parts.get("perfil").of(new PersonalData.Person(userId, null, null)) instanceof Map<?, ?> profile)) {
            throw new IllegalArgumentException("no account " + userId);
        }
        PersonalData.Person person = new PersonalData.Person(userId, (String) profile.get("correo"), currentSessionId);
        parts.forEach((section, part) -> out.put(section, section.equals("perfil") ? profile : part.of(person)));
        return out;
    }
}
