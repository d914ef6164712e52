package com.example.identity.api;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.Endpoints;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenOwner;
import com.example.identity.common.JsonContent;

/**
 * {@code /api/userinfo.php} (specification §4.1), the games' hot path: the profile of the owner of the bearer
 * token, with exactly the keys {@code id}, {@code primer_nombre}, {@code correo}, {@code rol}. Its steps, in order:
 * <ol>
 * <li>its own security chain ({@code ApiSecurityConfig.userinfoSecurityFilterChain}): the bearer token read and
 * checked, the API's limits applied ({@link BearerTokenFilter}); no session, no CSRF, no anonymous user;</li>
 * <li>the method: a GET is answered at the end of that chain ({@link AtChainEnd}), the way Spring Authorization
 * Server answers its own endpoints, without Spring MVC's dispatch (measured: the handler lookup, content
 * negotiation, message converter and early flush of this one call were about half of the server's CPU per call,
 * docs/performance.md); any other method goes on to Spring MVC, which answers a HEAD through {@link #userinfo}
 * (the same answer, without its body) and the others {@code 405 Método no permitido} with {@code Allow}
 * ({@link ApiErrors});</li>
 * <li>no bearer token (a session is not enough): 401 {@code Falta token Bearer}, {@code WWW-Authenticate: Bearer};</li>
 * <li>a {@code servidor} application's own token (decisions §21): valid, but no player is behind it, so there is
 * no profile to give: 403 {@code Permiso denegado};</li>
 * <li>the owner's profile, 200, whatever the token's scope.</li>
 * </ol>
 * Steps 3 to 5 are {@link #verdict}, the same for both ways in; every answer is JSON with
 * {@code Cache-Control: no-store}.
 */
@RestController
class UserInfoEndpoint {

    static final String MISSING = "Falta token Bearer";

    /** Steps 3 to 5: what the caller of the security chain gets. */
    enum Verdict { NO_TOKEN, NO_PLAYER, PROFILE }

    static Verdict verdict(Authentication caller) {
        if (!(caller instanceof BearerTokenAuthentication bearer)) {
            return Verdict.NO_TOKEN;
        }
        return bearer.owner().kind() == TokenKind.SERVER ? Verdict.NO_PLAYER : Verdict.PROFILE;
    }

    /** The answer's body. */
    static UserInfo profile(TokenOwner owner) {
        return new UserInfo(true, new User(owner.userId(), owner.primerNombre(), owner.correo(), owner.rol().value()));
    }

    /** Step 2's methods other than GET, through Spring MVC: a HEAD (a GET mapping answers it), the 405s. */
    @GetMapping(Endpoints.API_USERINFO)
    ResponseEntity<UserInfo> userinfo(Authentication caller) {
        return switch (verdict(caller)) {
            case NO_TOKEN -> throw ApiProblem.unauthorized(MISSING, "Bearer");
            case NO_PLAYER -> throw ApiProblem.forbidden(ApiSecurityConfig.DENIED);
            case PROFILE -> ApiJson.ok(profile(((BearerTokenAuthentication) caller).owner()));
        };
    }

    /** Step 2's GET, the last filter of the endpoint's security chain; other methods pass on to Spring MVC. */
    static final class AtChainEnd extends OncePerRequestFilter {

        private final JsonMapper json;
        private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

        AtChainEnd(JsonMapper json) {
            this.json = json;
        }

        @Override
        protected boolean shouldNotFilter(HttpServletRequest request) {
            return !"GET".equals(request.getMethod());
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            Authentication caller = contexts.getContext().getAuthentication();
            byte[] body = switch (verdict(caller)) {
                case NO_TOKEN -> {
                    response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
                    response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                    yield json.writeValueAsBytes(new ApiJson.Error(false, MISSING));
                }
                case NO_PLAYER -> {
                    response.setStatus(HttpServletResponse.SC_FORBIDDEN);
                    yield json.writeValueAsBytes(new ApiJson.Error(false, ApiSecurityConfig.DENIED));
                }
                case PROFILE -> {
                    response.setStatus(HttpServletResponse.SC_OK);
                    yield json.writeValueAsBytes(profile(((BearerTokenAuthentication) caller).owner()));
                }
            };
            response.setContentType(JsonContent.TYPE);
            response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }

    record UserInfo(boolean ok, User user) {
    }

    @JsonPropertyOrder({ "id", "primer_nombre", "correo", "rol" })
    record User(long id, @JsonProperty("primer_nombre") String primerNombre, String correo, String rol) {
    }
}
