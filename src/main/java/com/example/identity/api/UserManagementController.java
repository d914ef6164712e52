package com.example.identity.api;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountAdministration.AdminOutcome;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.common.ListQuery;
import com.example.identity.minors.BirthDates;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.minors.RefusedField;

/**
 * The administration API (decisions §23): the people of the admin page as JSON, for operators' scripts.
 * Admins only (the API chain's rule, {@link ApiSecurityConfig#administrator}); the same
 * {@link AccountAdministration} methods, rules, audit lines and session endings as {@code /dashboard/admin.php}.
 */
@RestController
class UserManagementController {

    static final String NOT_FOUND = "Usuario no encontrado";
    static final String BAD_ROLE = "rol inválido: user, developer_api o admin";
    static final String BAD_ACTIVE = "activo inválido: true o false";
    static final String NOTHING = "Nada que cambiar: envía rol, activo, primer_nombre o fecha_nacimiento";
    static final String EMAIL_TAKEN = "Ya existe una cuenta con ese correo";
    static final String OWN_UPDATE = "No puedes cambiar tu propio rol ni desactivar tu cuenta";
    static final String OWN_DELETE = "No puedes eliminar tu propia cuenta";
    static final String LAST_ADMIN = "Debe quedar al menos un admin activo";
    /** Decisions §24: a guest becomes a full account only by keeping its progress from the game. */
    static final String GUEST_ROLE = "Una cuenta de invitado no cambia de rol: se convierte desde el juego";
    /** D50: a guest has no birth date; it is asked when the guest keeps its progress (decisions §24, §27). */
    static final String GUEST_BIRTH_DATE = "Una cuenta de invitado no tiene fecha de nacimiento: se pide al convertirla "
            + "desde el juego";

    private final AccountAdministration administration;
    private final BirthDates birthDates;

    UserManagementController(AccountAdministration administration, BirthDates birthDates) {
        this.administration = administration;
        this.birthDates = birthDates;
    }

    /** {@code ?page=} (from 1), {@code ?size=} (1 to 200, default 50), {@code ?q=} (e-mail or name); by id. */
    @GetMapping(Endpoints.API_USERS_LIST)
    ResponseEntity<UserList> list(Authentication authentication, HttpServletRequest request, HttpServletResponse response) {
        ApiCaller.require(authentication);
        ListQuery query = ApiPaging.query(request);
        var page = administration.page(query);
        ApiPaging.links(response, Endpoints.API_USERS_LIST, query, page);
        return ApiJson.ok(new UserList(true, page.getContent().stream().map(UserView::of).toList()));
    }

    /** {@code correo}, {@code primer_nombre}, {@code rol} (default {@code user}): a one-time password, shown once. */
    @PostMapping(Endpoints.API_USERS_CREATE)
    ResponseEntity<UserCreated> create(Authentication authentication, HttpServletRequest request) {
        ApiCaller.require(authentication);
        String correo = FormFields.single(request, "correo");
        String name = FormFields.single(request, "primer_nombre");
        String rolField = FormFields.single(request, "rol");
        Role rol = rolField.isEmpty() ? Role.USER : role(rolField);
        try {
            var created = administration.createWithTemporaryPassword(name, correo, rol);
            return ApiJson.ok(new UserCreated(true, UserView.of(created.account()), created.temporaryPassword()));
        }
        catch (AccountService.InvalidAccountException e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
        catch (AccountService.EmailAlreadyUsedException e) {
            throw ApiProblem.conflict(EMAIL_TAKEN);
        }
    }

    /**
     * {@code id}, and any of {@code rol}, {@code activo} ({@code true}|{@code false}), {@code primer_nombre},
     * {@code fecha_nacimiento} ({@code YYYY-MM-DD}, the sign-up's rules; under the consent age with {@code correo_tutor}:
     * D50).
     */
    @PostMapping(Endpoints.API_USERS_UPDATE)
    ResponseEntity<Map<String, Boolean>> update(Authentication authentication, HttpServletRequest request) {
        Caller caller = ApiCaller.require(authentication);
        long id = FormFields.id(request);
        String rolField = FormFields.single(request, "rol");
        String activoField = FormFields.single(request, "activo");
        String name = request.getParameter("primer_nombre") == null ? null : FormFields.single(request, "primer_nombre");
        Role rol = rolField.isEmpty() ? null : role(rolField);
        Boolean activo = switch (activoField) {
            case "" -> null;
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw ApiProblem.badRequest(BAD_ACTIVE);
        };
        String birthField = FormFields.single(request, BirthDates.FIELD);
        String tutor = FormFields.single(request, ParentalConsents.FIELD);
        LocalDate birth = birthField.isEmpty() ? null : birth(birthField);
        if (rol == null && activo == null && name == null && birth == null) {
            throw ApiProblem.badRequest(NOTHING);
        }
        AdminOutcome outcome;
        try {
            outcome = administration.update(caller, id, rol, activo, name, birth, tutor);
        }
        catch (AccountService.InvalidAccountException | RefusedField e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
        return answer(outcome, OWN_UPDATE);
    }

    /** {@code id}: the account is deleted as decisions §20 says (account/AccountDeletion). */
    @PostMapping(Endpoints.API_USERS_DELETE)
    ResponseEntity<Map<String, Boolean>> delete(Authentication authentication, HttpServletRequest request) {
        Caller caller = ApiCaller.require(authentication);
        return answer(administration.delete(caller, FormFields.id(request)), OWN_DELETE);
    }

    private static ResponseEntity<Map<String, Boolean>> answer(AdminOutcome outcome, String own) {
        return switch (outcome) {
            case DONE -> ApiJson.ok(Map.of("ok", true));
            case NOT_FOUND -> throw ApiProblem.notFound(NOT_FOUND);
            case OWN_ACCOUNT -> throw ApiProblem.conflict(own);
            case LAST_ADMIN -> throw ApiProblem.conflict(LAST_ADMIN);
            case GUEST_ACCOUNT -> throw ApiProblem.conflict(GUEST_ROLE);
            case GUEST_BIRTH_DATE -> throw ApiProblem.conflict(GUEST_BIRTH_DATE);
        };
    }

    /** The sign-up's rule of a birth date and its refusals (an impossible, future or pre-1900 date). */
    private LocalDate birth(String typed) {
        try {
            return birthDates.parse(typed);
        }
        catch (RefusedField e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
    }

    private static Role role(String value) {
        return Role.ASSIGNABLE.stream().filter(r -> r.value().equals(value)).findFirst()
                .orElseThrow(() -> ApiProblem.badRequest(BAD_ROLE));
    }

    record UserList(boolean ok, List<UserView> usuarios) {
    }

    @JsonPropertyOrder({ "ok", "usuario", "contrasena_temporal" })
    record UserCreated(boolean ok, UserView usuario, @JsonProperty("contrasena_temporal") String contrasenaTemporal) {
    }

    /** An account as the API shows it; times are ISO-8601 UTC to the second. */
    @JsonPropertyOrder({ "id", "primer_nombre", "correo", "rol", "activo", "created_at" })
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record UserView(long id, @JsonProperty("primer_nombre") String primerNombre, String correo, String rol,
            boolean activo, @JsonProperty("created_at") String createdAt) {

        static UserView of(UserAccount account) {
            return new UserView(account.getId(), account.getPrimerNombre(), account.getCorreo(), account.getRol().value(),
                    account.isEnabled(), TokenManagementController.iso(account.getCreatedAt()));
        }
    }
}
