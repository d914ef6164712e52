package com.example.identity.api;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.common.ListQuery;
import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.SanctionRefused;
import com.example.identity.sanctions.SanctionRefused.Reason;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;

/**
 * Sanctions as JSON (decisions §26): place ({@code crear.php}), lift early ({@code levantar.php}) and list
 * ({@code list.php}), through the same {@link SanctionService} as the sanctions page. Callers: an admin (everywhere),
 * an application's owner (in their applications) with a session and CSRF or a {@code gestion} token, a
 * {@code servidor} application's own token (in its owner's applications: {@link ApiCaller#sanctioner}); the chain
 * refused everyone else with {@code Permiso denegado}.
 */
@RestController
class SanctionController {

    private final SanctionService sanctions;
    private final Clock clock;

    SanctionController(SanctionService sanctions, Clock clock) {
        this.sanctions = sanctions;
        this.clock = clock;
    }

    /** {@code usuario_id}, {@code motivo}, {@code hasta} (ISO 8601 with its offset, or absent: permanent), {@code client_id}. */
    @PostMapping(Endpoints.API_SANCTIONS_CREATE)
    ResponseEntity<Placed> create(Authentication authentication, HttpServletRequest request) {
        Sanctioner who = ApiCaller.sanctioner(authentication);
        long userId = userId(request, true);
        String motivo = FormFields.single(request, "motivo");
        String hastaField = request.getParameter("hasta") == null ? null : FormFields.single(request, "hasta");
        String clientId = FormFields.single(request, "client_id").strip();
        Instant hasta = hastaField == null ? null : hasta(hastaField);
        if (clientId.length() > 100) {
            throw refused(Reason.CLIENT_INVALID);
        }
        try {
            Sanction placed = sanctions.place(who, userId, motivo, hasta, clientId.isEmpty() ? null : clientId);
            return ApiJson.ok(new Placed(true, SanctionView.of(placed)));
        }
        catch (SanctionRefused e) {
            throw refused(e.reason());
        }
    }

    /** {@code id}: lifted at once (nothing it revoked comes back); one lifted or ended already stays so. */
    @PostMapping(Endpoints.API_SANCTIONS_LIFT)
    ResponseEntity<Map<String, Boolean>> lift(Authentication authentication, HttpServletRequest request) {
        Sanctioner who = ApiCaller.sanctioner(authentication);
        long id = FormFields.id(request);
        try {
            sanctions.lift(who, id);
        }
        catch (SanctionRefused e) {
            throw refused(e.reason());
        }
        return ApiJson.ok(Map.of("ok", true));
    }

    /**
     * With {@code usuario_id}: every sanction of that person the caller may see (admins: all; an owner: those in
     * their applications), newest first. Without: one page ({@code page}, {@code size}) of all those the caller may
     * see, newest first, the neighbouring pages in a {@code Link} header.
     */
    @GetMapping(Endpoints.API_SANCTIONS_LIST)
    ResponseEntity<SanctionList> list(Authentication authentication, HttpServletRequest request,
            HttpServletResponse response) {
        Sanctioner who = ApiCaller.sanctioner(authentication);
        Instant now = clock.instant();
        try {
            if (request.getParameter("usuario_id") != null) {
                return ApiJson.ok(new SanctionList(true, sanctions.ofUser(who, userId(request, true)).stream()
                        .map(s -> ListedSanction.of(s, now)).toList()));
            }
            ListQuery query = pageOnly(request);
            var page = sanctions.page(who, query.page(), query.size());
            if (page.more() || query.page() > 1) {
                response.setHeader(HttpHeaders.LINK, links(query, page.more()));
            }
            return ApiJson.ok(new SanctionList(true, page.sanctions().stream().map(s -> ListedSanction.of(s, now)).toList()));
        }
        catch (SanctionRefused e) {
            throw refused(e.reason());
        }
    }

    private static long userId(HttpServletRequest request, boolean required) {
        String value = FormFields.single(request, "usuario_id").strip();
        if (value.isEmpty() && required) {
            throw refused(Reason.USUARIO_MISSING);
        }
        if (value.length() > 19 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw refused(Reason.USUARIO_INVALID);
        }
        try {
            return Long.parseLong(value);
        }
        catch (NumberFormatException e) {
            throw refused(Reason.USUARIO_INVALID);
        }
    }

    /** ISO 8601 with its offset ({@code 2027-01-31T12:00:00Z}, {@code ...+01:00}); anything else is {@code hasta inválido}. */
    static Instant hasta(String value) {
        String text = value.strip();
        if (text.isEmpty() || text.length() > 64) {
            throw refused(Reason.HASTA_INVALID);
        }
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        }
        catch (DateTimeParseException | ArithmeticException e) {
            throw refused(Reason.HASTA_INVALID);
        }
    }

    private static ListQuery pageOnly(HttpServletRequest request) {
        if (request.getParameter("q") != null) {
            throw ApiProblem.badRequest("q no se admite aquí: usa usuario_id");
        }
        return ApiPaging.query(request);
    }

    private static String links(ListQuery query, boolean more) {
        String next = "<" + Endpoints.API_SANCTIONS_LIST + "?page=" + (query.page() + 1) + "&size=" + query.size()
                + ">; rel=\"next\"";
        String prev = "<" + Endpoints.API_SANCTIONS_LIST + "?page=" + (query.page() - 1) + "&size=" + query.size()
                + ">; rel=\"prev\"";
        return more && query.page() > 1 ? next + ", " + prev : more ? next : prev;
    }

    private static ApiProblem refused(Reason reason) {
        return switch (HttpStatus.valueOf(reason.status())) {
            case NOT_FOUND -> ApiProblem.notFound(reason.message());
            case FORBIDDEN -> ApiProblem.forbidden(reason.message());
            case CONFLICT -> ApiProblem.conflict(reason.message());
            default -> ApiProblem.badRequest(reason.message());
        };
    }

    record Placed(boolean ok, SanctionView sancion) {
    }

    record SanctionList(boolean ok, List<ListedSanction> sanciones) {
    }

    /**
     * A sanction as {@code crear.php} answers it (decisions §26). Times are ISO-8601 UTC to the second; {@code hasta}
     * null is permanent, {@code client_id} null is every application.
     */
    @JsonPropertyOrder({ "id", "usuario_id", "motivo", "hasta", "client_id", "creada" })
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record SanctionView(long id, @JsonProperty("usuario_id") long usuarioId, String motivo, @Nullable String hasta,
            @JsonProperty("client_id") @Nullable String clientId, String creada) {

        static SanctionView of(Sanction sanction) {
            return new SanctionView(sanction.id(), sanction.userId(), sanction.motivo(),
                    TokenManagementController.iso(sanction.hasta()), sanction.clientId(),
                    TokenManagementController.iso(sanction.createdAt()));
        }
    }

    /** A sanction in a list: the same fields, then when it was lifted early (or null) and whether it is in force now. */
    @JsonPropertyOrder({ "id", "usuario_id", "motivo", "hasta", "client_id", "creada", "levantada", "en_vigor" })
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ListedSanction(long id, @JsonProperty("usuario_id") long usuarioId, String motivo, @Nullable String hasta,
            @JsonProperty("client_id") @Nullable String clientId, String creada, @Nullable String levantada,
            @JsonProperty("en_vigor") boolean enVigor) {

        static ListedSanction of(Sanction sanction, Instant now) {
            return new ListedSanction(sanction.id(), sanction.userId(), sanction.motivo(),
                    TokenManagementController.iso(sanction.hasta()), sanction.clientId(),
                    TokenManagementController.iso(sanction.createdAt()), TokenManagementController.iso(sanction.liftedAt()),
                    sanction.inForceAt(now));
        }
    }
}
