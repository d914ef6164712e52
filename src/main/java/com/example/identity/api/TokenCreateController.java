package com.example.identity.api;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.common.Names;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * {@code POST /api/tokens/create.php} (specification §4.2, decisions §5 and §15): a personal token for
 * the logged-in developer, of scope {@code perfil} unless {@code scope=gestion} is asked for. The API
 * chain has already required a session of a {@code developer_api} or {@code admin} user and the CSRF
 * token; a bearer token is not a session. Checks run in the order name, then scope.
 */
@RestController
class TokenCreateController {

    static final String MISSING_NAME = "Falta el parámetro name";
    static final String NAME_TOO_LONG = "name demasiado largo";
    static final String NAME_INVALID = "name inválido";
    static final String REPEATED = "Parámetro repetido: name";
    static final String SCOPE_INVALID = "scope inválido";

    private final ApiTokenService tokens;

    TokenCreateController(ApiTokenService tokens) {
        this.tokens = tokens;
    }

    @PostMapping(Endpoints.API_CREATE_TOKEN)
    ResponseEntity<Created> create(Authentication caller, HttpServletRequest request) {
        if (!(caller.getPrincipal() instanceof AccountPrincipal user)) {
            throw ApiProblem.unauthorized(ApiSecurityConfig.NO_SESSION, null);
        }
        String[] names = request.getParameterValues("name");
        String problem = problemWithName(names);
        if (problem != null) {
            throw ApiProblem.badRequest(problem);
        }
        var issued = tokens.createPersonal(user.id(), names[0], scope(request));
        return ApiJson.ok(new Created(true, issued.value()));
    }

    /** name is required, sent once, and follows the shared rule ({@link Names}: trimmed, 1 to 100, no control characters). */
    static String problemWithName(String[] names) {
        var problem = names == null || names.length == 0 ? Optional.of(Names.Problem.MISSING) : Names.problemWith(names[0]);
        if (problem.isPresent() && problem.get() == Names.Problem.MISSING) {
            return MISSING_NAME;
        }
        if (names.length > 1) {
            return REPEATED;
        }
        return problem.map(p -> p == Names.Problem.TOO_LONG ? NAME_TOO_LONG : NAME_INVALID).orElse(null);
    }

    /** {@code perfil} when absent; exactly {@code perfil} or {@code gestion} when sent (once). */
    static TokenScope scope(HttpServletRequest request) {
        String[] scopes = request.getParameterValues("scope");
        if (scopes == null || scopes.length == 0) {
            return TokenScope.DEFAULT;
        }
        if (scopes.length > 1) {
            throw ApiProblem.badRequest("Parámetro repetido: scope");
        }
        return TokenScope.fromValue(scopes[0]).orElseThrow(() -> ApiProblem.badRequest(SCOPE_INVALID));
    }

    record Created(boolean ok, String token) {
    }
}
