package com.example.identity.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.BindParam;

import com.example.identity.sanctions.SanctionRefused;

/**
 * The sanctions page's "Nueva sanción" form (decisions §26), bound by its fields' names: {@code usuario_id},
 * {@code client_id} (empty: every application, admins only), {@code motivo}, {@code duracion} (an hour, a day, a week,
 * thirty days, for good, or until the date of {@code hasta}) and {@code hasta} ({@code datetime-local}, read as UTC).
 * The shape is checked here; the rules (the reason's length, the date in the future, who may sanction where) by
 * {@code SanctionService}, whose refusals name the same fields.
 */
record SanctionForm(
        @NotBlank(message = USER_MISSING) @Pattern(regexp = "\\s*([0-9]{1,18})?\\s*", message = USER_INVALID)
        @BindParam("usuario_id") String usuarioId,
        @BindParam("client_id") @Nullable String clientId,
        @NotBlank(message = MOTIVO_MISSING) String motivo,
        @NotNull(message = DURATION_MISSING) @Pattern(regexp = "PT1H|P1D|P7D|P30D|permanente|fecha",
                message = DURATION_MISSING) String duracion,
        @Nullable String hasta) {

    static final String USER_MISSING = "Falta el parámetro usuario_id";
    static final String USER_INVALID = "usuario_id inválido";
    static final String MOTIVO_MISSING = "Falta el parámetro motivo";
    static final String DURATION_MISSING = "Elige cuánto dura la sanción";

    /** The account sanctioned (once the form is valid). */
    long account() {
        return Long.parseLong(usuarioId.strip());
    }

    /** The account typed, when it reads as one: whose sanctions the page lists below the form. */
    @Nullable Long typedAccount() {
        try {
            return usuarioId == null ? null : Long.parseLong(usuarioId.strip());
        }
        catch (NumberFormatException e) {
            return null;
        }
    }

    /** The application, or null for every one. */
    @Nullable String application() {
        return clientId == null || clientId.isBlank() ? null : clientId.strip();
    }

    /**
     * When the sanction ends: {@code now} plus the duration chosen, the date typed (UTC), or null for good.
     *
     * @throws SanctionRefused {@code hasta inválido} for a date that cannot be read
     */
    @Nullable Instant end(Instant now) {
        return switch (duracion) {
            case "permanente" -> null;
            case "fecha" -> typedDate();
            default -> now.plus(Duration.parse(duracion));
        };
    }

    private Instant typedDate() {
        try {
            return LocalDateTime.parse(hasta == null ? "" : hasta.strip()).toInstant(ZoneOffset.UTC);
        }
        catch (DateTimeParseException e) {
            throw new SanctionRefused(SanctionRefused.Reason.HASTA_INVALID);
        }
    }

    /** The form's name of the field a Java property is bound from (what the page's errors are keyed by). */
    static String fieldOf(String property) {
        return switch (property) {
            case "usuarioId" -> "usuario_id";
            case "clientId" -> "client_id";
            default -> property;
        };
    }

    /** The values as typed, by field name, for the page that shows the form again. */
    Map<String, Object> asTyped() {
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("usuario_id", usuarioId == null ? "" : usuarioId.strip());
        typed.put("client_id", clientId == null ? "" : clientId);
        typed.put("motivo", motivo == null ? "" : motivo);
        typed.put("duracion", duracion == null ? "P7D" : duracion);
        typed.put("hasta", hasta == null ? "" : hasta);
        return typed;
    }
}
