package com.example.identity.settings;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AccountLines;
import com.example.identity.guestaccount.Guests;
import com.example.identity.passkey.Passkeys;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.session.OpenSessions;

/**
 * Everything stored about a person (decisions §20, GDPR art. 15 and 20), as the JSON of {@code /cuenta/datos}:
 * one section per kind of record, never a secret, a digest or key material (no password hash, no token or code
 * digest, no TOTP secret, no passkey public key, no session id). {@link #TABLES} says which section holds each
 * table; DataExportIT fails when a table refers to {@code users} and is not in it.
 */
@Component
class DataExport {

    /** Each table that holds something about the person, and the section of the download that shows it. */
    static final Map<String, String> TABLES = Map.ofEntries(
            Map.entry("users", "perfil"),
            Map.entry("api_tokens", "tokens_api"),
            Map.entry("oauth_clients", "aplicaciones"),
            Map.entry("oauth_client_logout_uris", "aplicaciones"),
            Map.entry("oauth_authorizations", "autorizaciones"),
            Map.entry("refresh_tokens", "refresh_tokens"),
            Map.entry("oauth_consents", "consentimientos"),
            Map.entry("device_authorizations", "dispositivos"),
            Map.entry("password_resets", "recuperaciones_contrasena"),
            Map.entry("user_totp", "segundo_factor"),
            Map.entry("recovery_codes", "segundo_factor"),
            Map.entry("email_changes", "cambios_correo"),
            Map.entry("spring_session", "sesiones"),
            Map.entry("user_entities", "llaves_acceso"),
            Map.entry("user_credentials", "llaves_acceso"),
            Map.entry("audit_events", "eventos_auditoria"),
            Map.entry("linked_identities", "cuentas_vinculadas"),
            // decisions §24: what was kept of the account while it was a guest (guestaccount/Guests#personalData)
            Map.entry("guests", "invitado"),
            Map.entry("guest_conversions", "invitado"),
            Map.entry("sanctions", "sanciones"));

    private final JdbcTemplate jdbc;
    private final OpenSessions sessions;
    private final Passkeys passkeys;
    private final SanctionService sanctions;
    private final Clock clock;
    private final Guests guests;
    private final AccountLines auditLines;

    DataExport(JdbcTemplate jdbc, OpenSessions sessions, Passkeys passkeys, Clock clock, Guests guests,
            SanctionService sanctions, AccountLines auditLines) {
        this.auditLines = auditLines;
        this.guests = guests;
        this.sanctions = sanctions;
        this.jdbc = jdbc;
        this.sessions = sessions;
        this.passkeys = passkeys;
        this.clock = clock;
    }

    /** The download of account {@code userId}, {@code currentSessionId} marked as the current session. */
    @Transactional(readOnly = true)
    Map<String, Object> of(long userId, @Nullable String currentSessionId) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("generado", clock.instant().toString());
        List<Map<String, Object>> profile = rows("select id, primer_nombre, correo, email_verified as correo_verificado, "
                + "rol, enabled as activa, "
                + "password_change_required as cambio_de_contrasena_pedido, created_at, updated_at from users where id = ?",
                userId);
        if (profile.isEmpty()) {
            throw new IllegalArgumentException("no account " + userId);
        }
        String correo = (String) profile.get(0).get("correo");
        out.put("perfil", profile.get(0));
        out.put("tokens_api", rows("select id, name as nombre, prefix as prefijo, kind as tipo, personal_scope as alcance, "
                + "client_id, scopes, created_at, expires_at, last_used_at, revoked_at from api_tokens where user_id = ? "
                + "order by id", userId));
        // the webhook's address, never its secret
        List<Map<String, Object>> applications = rows("select c.client_id, c.name as nombre, c.redirect_uri, "
                + "c.client_type as tipo, c.first_party as primera_parte, w.url as webhook_url, c.created_at, "
                + "c.secret_rotated_at, c.revoked_at from oauth_clients c "
                + "left join webhook_endpoints w on w.client_id = c.client_id where c.owner_id = ? order by c.id", userId);
        for (Map<String, Object> application : applications) {
            application.put("post_logout_redirect_uris", jdbc.queryForList("select uri from oauth_client_logout_uris "
                    + "where client_id = ? order by uri", String.class, application.get("client_id")));
        }
        out.put("aplicaciones", applications);
        out.put("autorizaciones", rows("select client_id, scopes, auth_time, amr, code_issued_at from oauth_authorizations "
                + "where user_id = ? order by code_issued_at", userId));
        out.put("refresh_tokens", rows("select client_id, scopes, created_at, expires_at, rotated_at, revoked_at "
                + "from refresh_tokens where user_id = ? order by id", userId));
        out.put("consentimientos", rows("select c.client_id, o.name as aplicacion, c.scopes, c.granted_at from oauth_consents c "
                + "left join oauth_clients o on o.client_id = c.client_id where c.user_id = ? order by c.id", userId));
        out.put("dispositivos", rows("select client_id, scopes, status as estado, created_at, decided_at from "
                + "device_authorizations where user_id = ? order by created_at", userId));
        out.put("recuperaciones_contrasena", rows("select created_at, expires_at, used_at from password_resets "
                + "where user_id = ? order by id", userId));
        Map<String, Object> factor = new LinkedHashMap<>();
        List<Map<String, Object>> totp = rows("select created_at from user_totp where user_id = ?", userId);
        factor.put("totp", totp.isEmpty() ? null : totp.get(0));
        factor.put("codigos_de_recuperacion", rows("select created_at, used_at from recovery_codes where user_id = ? "
                + "order by id", userId));
        out.put("segundo_factor", factor);
        out.put("cambios_correo", rows("select new_correo as correo_nuevo, created_at, expires_at, used_at from email_changes "
                + "where user_id = ? order by id", userId));
        out.put("sesiones", sessions.of(correo, currentSessionId).stream().map(s -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("dispositivo", s.device());
            row.put("direccion", s.address());
            row.put("abierta", s.openedAt().toString());
            row.put("ultimo_uso", s.lastSeen().toString());
            row.put("actual", s.current());
            return row;
        }).toList());
        out.put("llaves_acceso", passkeys.of(correo).stream().map(p -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", p.id());
            row.put("nombre", p.label());
            row.put("creada", p.created() == null ? null : p.created().toString());
            row.put("ultimo_uso", p.lastUsed() == null ? null : p.lastUsed().toString());
            return row;
        }).toList());
        out.put("invitado", guests.personalData(userId));
        out.put("cuentas_vinculadas", rows("select provider as proveedor, subject as identificador, linked_at, last_used_at "
                + "from linked_identities where user_id = ? order by id", userId));
        // the sanctions placed on the person (decisions §26), from sanctions/: not who placed them
        out.put("sanciones", sanctions.ofPerson(userId).stream().map(s -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", s.id());
            row.put("motivo", s.motivo());
            row.put("hasta", s.hasta() == null ? null : s.hasta().toString());
            row.put("client_id", s.clientId());
            row.put("creada", s.createdAt().toString());
            row.put("levantada", s.liftedAt() == null ? null : s.liftedAt().toString());
            row.put("en_vigor", s.inForceAt(clock.instant()));
            return row;
        }).toList());
        // by the account's id, never by the address, which a later account may hold (issue 39.6)
        out.put("eventos_auditoria", auditLines.of(userId).stream().map(line -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("occurred_at", line.occurredAt().toString());
            row.put("evento", line.event());
            row.put("actor", line.actor());
            row.put("direccion", line.address());
            row.put("objeto", line.subject());
            return row;
        }).toList());
        return out;
    }

    private List<Map<String, Object>> rows(String sql, Object... args) {
        return jdbc.queryForList(sql, args).stream().map(DataExport::plain).toList();
    }

    /** Lower-case names (H2 answers in capitals) and times as ISO-8601 instants, whatever the driver gives. */
    private static Map<String, Object> plain(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>();
        row.forEach((name, value) -> out.put(name.toLowerCase(Locale.ROOT), plain(value)));
        return out;
    }

    private static @Nullable Object plain(@Nullable Object value) {
        if (value instanceof Timestamp t) {
            return t.toInstant().toString();
        }
        if (value instanceof OffsetDateTime t) {
            return t.toInstant().toString();
        }
        return value;
    }
}
