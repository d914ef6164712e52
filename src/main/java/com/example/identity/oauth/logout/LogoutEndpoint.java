package com.example.identity.oauth.logout;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.web.authentication.logout.SecurityContextLogoutHandler;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.ClientLogoutUris;
import com.example.identity.oauth.authorize.IdTokenHints;
import com.example.identity.web.PagePolicy;

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0, decisions §12.7): {@code GET} or
 * {@code POST /oauth/logout.php} with {@code id_token_hint}, {@code post_logout_redirect_uri},
 * {@code state} and optionally {@code client_id}.
 * <ul>
 * <li>A {@code post_logout_redirect_uri} is followed only when the application it belongs to is known (the
 * hint's audience or {@code client_id}, which must agree) and registered it byte for byte; otherwise a
 * Spanish error page, and no redirect (no open redirect).</li>
 * <li>With a valid hint (an id_token of this server, expired or not) for the logged-in user, or with no
 * one logged in, the session ends (its row is deleted, so on every instance) and the browser goes to the
 * registered address with {@code state}, else to the login page.</li>
 * <li>Without a valid hint, or with a hint of another user, a logged-in user is asked: a Spanish page whose
 * form posts to {@code /logout} with its CSRF token. A logout nobody can prove the relying party asked for
 * is never done silently. When the request named a registered address (which then needs {@code client_id}
 * or a hint to say whose), the form carries it, the client id and {@code state}, and
 * {@link ConfirmedLogoutRedirect} sends the browser there after the session ended, having checked the
 * registration again.</li>
 * </ul>
 * A cross-site {@code POST} does not carry the session cookie ({@code SameSite=Lax}): it is answered with a
 * 303 to the same request as a {@code GET}, a top-level navigation that does.
 */
@Controller
class LogoutEndpoint {

    private static final int MAX_PARAMETER = 4096;
    private static final List<String> PARAMETERS = List.of("id_token_hint", "post_logout_redirect_uri", "state", "client_id");

    private final IdTokenHints hints;
    private final ClientLogoutUris logoutUris;

    LogoutEndpoint(IdTokenHints hints, ClientLogoutUris logoutUris) {
        this.hints = hints;
        this.logoutUris = logoutUris;
    }

    @RequestMapping(path = Endpoints.LOGOUT, method = { RequestMethod.GET, RequestMethod.POST })
    @Nullable String logout(HttpServletRequest request, HttpServletResponse response, Model model) throws IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        AccountPrincipal user = authentication != null && authentication.getPrincipal() instanceof AccountPrincipal a
                ? a : null;
        // the layout's header shows who is logged in (site/CurrentUserAdvice covers the page packages only)
        model.addAttribute("currentUser", user);
        if (user == null && "POST".equals(request.getMethod())) {
            var again = UriComponentsBuilder.fromPath(request.getContextPath() + Endpoints.LOGOUT);
            Map<String, String> values = new HashMap<>();
            for (String name : PARAMETERS) {
                String value = parameter(request, name);
                if (value != null) {
                    again.queryParam(name, "{" + name + "}");
                    values.put(name, value);
                }
            }
            response.setStatus(HttpStatus.SEE_OTHER.value());
            response.setHeader("Location", again.encode().buildAndExpand(values).toUriString());
            return null;
        }
        String hintValue = parameter(request, "id_token_hint");
        String clientId = parameter(request, "client_id");
        String postLogout = parameter(request, "post_logout_redirect_uri");
        String state = parameter(request, "state");
        Jwt hint = hintValue == null ? null : hints.read(hintValue);
        if (hint != null) {
            List<String> audience = hint.getAudience();
            if (audience == null || audience.size() != 1 || (clientId != null && !audience.contains(clientId))) {
                return refused(response, model, "El id_token_hint no corresponde a la aplicación indicada.");
            }
            clientId = audience.get(0);
        }
        String back = null;
        if (postLogout != null) {
            if (clientId == null || !logoutUris.isRegistered(clientId, postLogout)) {
                return refused(response, model,
                        "La dirección post_logout_redirect_uri no está registrada para esta aplicación.");
            }
            back = withState(postLogout, state);
        }
        if (user != null && (hint == null || !user.subject().equals(hint.getSubject()))) {
            model.addAttribute("hintForAnotherUser", hint != null);
            if (back != null) {
                // the confirmation carries where to go back, checked again when it is posted
                // (ConfirmedLogoutRedirect): the form is never trusted
                model.addAttribute("postLogoutRedirectUri", postLogout);
                model.addAttribute("clientId", clientId);
                model.addAttribute("state", state);
                response.setHeader(PagePolicy.HEADER, PagePolicy.allowingFormsTo(postLogout));
            }
            return "oauth/logout";
        }
        if (user != null) {
            new SecurityContextLogoutHandler().logout(request, response, authentication);
        }
        response.sendRedirect(back != null ? back : request.getContextPath() + Endpoints.LOGGED_OUT);
        return null;
    }

    /** {@code uri} with {@code state} added to its query, or {@code uri} alone when there is no state. */
    static String withState(String uri, @Nullable String state) {
        return state == null ? uri
                : uri + (uri.contains("?") ? "&" : "?") + "state=" + URLEncoder.encode(state, StandardCharsets.UTF_8);
    }

    private static String refused(HttpServletResponse response, Model model, String message) {
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        model.addAttribute("message", message);
        return "oauth/logout-error";
    }

    /** A parameter sent once and not too long, else absent (a repeated one is not trusted). */
    static @Nullable String parameter(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        if (values == null || values.length != 1 || values[0].isEmpty() || values[0].length() > MAX_PARAMETER) {
            return null;
        }
        return values[0];
    }
}
