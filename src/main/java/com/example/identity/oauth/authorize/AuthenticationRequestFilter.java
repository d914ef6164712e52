package com.example.identity.oauth.authorize;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriUtils;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.LoginFactors;
import com.example.identity.common.LocalRedirect;
import com.example.identity.crypto.Secrets;
import com.example.identity.oidc.RequestedClaims;
import com.example.identity.signin.SecondStep;

/**
 * OpenID Connect's authentication request parameters (OIDC Core §3.1.2.1, decisions §12.2) in front of
 * Spring Authorization Server's authorization endpoint, which knows only part of {@code prompt}. It runs
 * after Spring Authorization Server has validated the request (client, redirect URI, response type, scope,
 * PKCE: its validating filter leaves the validated request as a request attribute) and before the
 * {@code AuthorizationFilter} would send a visitor to the login page. Its steps, in order:
 *
 * <ol>
 * <li>{@code request_uri} and {@code request}: {@code request_uri_not_supported} /
 * {@code request_not_supported} (OIDC Core §6), sent only to a verified redirect URI
 * ({@link AuthorizeErrorResponder} shows the Spanish page otherwise).</li>
 * <li>The syntax of {@code prompt}, {@code max_age}, {@code claims} and {@code id_token_hint}:
 * {@code invalid_request}.</li>
 * <li>Whether the user must log in: no session; or a fresh login, for {@code prompt=login}, a session older
 * than {@code max_age} seconds, or an {@code id_token_hint} of another user, or of a user other than the
 * {@code sub} value asked for in the {@code claims} parameter (a login of that other user is then
 * {@code access_denied}); an essential {@code acr} of values never given is {@code access_denied} at once,
 * and {@code acr} asked for with {@code mfa} demands a second factor like {@code acr_values=mfa}. With {@code prompt=none}
 * that is {@code login_required} and never a page; otherwise the login page, with this request as the way
 * back (a POST's form fields become the query).</li>
 * </ol>
 *
 * <p>No loop: when a fresh login is asked for, the time is written in the session under a digest of this
 * request's parameters; when the same request comes back with a login at or after that time, the demand
 * is met, and it is removed (one use) when the request goes on to the endpoint; a request that must first
 * step up to a second factor ({@code acr_values=mfa}) keeps it for its return. {@code login_hint},
 * {@code display}, {@code ui_locales}, {@code claims_locales}, {@code acr_values} and unknown parameters
 * pass through; the login page reads {@code login_hint} itself.
 *
 * <p>A POST without a logged-in user is answered with a 303 to the same request as a GET: the session
 * cookie is {@code SameSite=Lax}, so a browser leaves it out of a relying party's cross-site POST but
 * sends it with the GET.
 */
public class AuthenticationRequestFilter extends OncePerRequestFilter {

    /** Session attribute: digest of an authorization request → when a fresh login was asked for it. */
    static final String FRESH_LOGIN_DEMANDS = AuthenticationRequestFilter.class.getName() + ".freshLoginDemands";

    /** A demand older than this is forgotten (the login page's own session would have ended by then). */
    static final Duration DEMAND_LIFETIME = Duration.ofMinutes(30);

    /** At most this many demands are kept per session, the oldest dropped first. */
    static final int MAX_DEMANDS = 16;

    private static final Pattern MAX_AGE = Pattern.compile("[0-9]{1,10}");

    private final RequestMatcher endpoint;
    private final AuthorizeErrorResponder errors;
    private final IdTokenHints hints;
    private final Clock clock;

    /** The one {@code acr_values} value served (decisions §17): a login with two factors. */
    public static final String MFA = RequestedClaims.ACR_MFA;

    private final SecondStep secondStep;

    AuthenticationRequestFilter(RequestMatcher endpoint, AuthorizeErrorResponder errors, IdTokenHints hints,
            SecondStep secondStep, Clock clock) {
        this.secondStep = secondStep;
        this.endpoint = endpoint;
        this.errors = errors;
        this.hints = hints;
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!endpoint.matches(request)) {
            chain.doFilter(request, response);
            return;
        }
        // 1. request objects are not supported, whatever else the request says
        if (request.getParameter("request_uri") != null) {
            refuse(request, response, AuthorizeError.REQUEST_URI_NOT_SUPPORTED);
            return;
        }
        if (request.getParameter("request") != null) {
            refuse(request, response, AuthorizeError.REQUEST_NOT_SUPPORTED);
            return;
        }
        if (!(request.getAttribute(OAuth2AuthorizationCodeRequestAuthenticationToken.class.getName())
                instanceof OAuth2AuthorizationCodeRequestAuthenticationToken)) {
            // not an authorization request that Spring Authorization Server validated: its own business
            chain.doFilter(request, response);
            return;
        }

        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        AccountPrincipal user = authentication != null && authentication.isAuthenticated()
                && authentication.getPrincipal() instanceof AccountPrincipal account ? account : null;
        if (user == null && "POST".equals(request.getMethod())) {
            // A relying party's page posts the form cross-site, and a SameSite=Lax session cookie is not
            // sent with a cross-site POST: the same request as a GET (a top-level navigation, which
            // carries the cookie) tells a visitor without a session from a logged-in user.
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader("Location", request.getContextPath() + wayBack(request));
            return;
        }

        // 2. syntax
        AuthorizeError malformed = syntaxError(request);
        if (malformed != null) {
            refuse(request, response, malformed);
            return;
        }
        Set<String> prompt = words(request.getParameter("prompt"));
        String maxAge = request.getParameter("max_age");
        String hint = request.getParameter("id_token_hint");
        String hintSubject = null;
        if (hint != null && !hint.isEmpty()) {
            hintSubject = hints.subjectOf(hint);
            if (hintSubject == null) {
                refuse(request, response, AuthorizeError.INVALID_ID_TOKEN_HINT);
                return;
            }
        }
        String claims = request.getParameter("claims");
        if (RequestedClaims.demandsUnknownAcr(claims)) {
            // an essential acr of values never given: the authentication cannot succeed (OIDC Core §5.5.1.1)
            refuse(request, response, AuthorizeError.UNMET_ACR);
            return;
        }
        // sub with a value in the claims parameter (OIDC Core §5.5.1): the id_token must be about that user
        String requiredSubject = RequestedClaims.requiredSubject(claims);

        // 3. who is logged in, since when, and is that enough
        Instant now = clock.instant();
        Instant loginTime = user == null ? null : LoginFactors.passwordLoginTime(authentication);
        boolean freshLogin = user != null && (prompt.contains("login")
                || (maxAge != null && !maxAge.isEmpty() && olderThan(loginTime, Long.parseLong(maxAge), now))
                || (hintSubject != null && !hintSubject.equals(user.subject()))
                || (requiredSubject != null && !requiredSubject.equals(user.subject())));
        boolean demandMet = freshLogin && demandMet(request, digest(request), loginTime);
        if (demandMet) {
            freshLogin = false;
        }
        if (user != null && !freshLogin) {
            if (requiredSubject != null && !requiredSubject.equals(user.subject())) {
                // the fresh login asked for was another user's: no code for them
                refuse(request, response, AuthorizeError.OTHER_SUBJECT);
                return;
            }
            if (prompt.contains("none") && user.passwordChangeRequired()) {
                refuse(request, response, AuthorizeError.INTERACTION_REQUIRED);
                return;
            }
            // acr_values=mfa: the application demands a second factor; a session without one proves it now
            // (or sets one up), then comes back here
            // (acr asked for in the claims parameter with mfa among its values, or essential, demands the same)
            if ((words(request.getParameter("acr_values")).contains(MFA) || RequestedClaims.demandsSecondFactor(claims))
                    && !LoginFactors.methods(authentication).contains(MFA)) {
                if (prompt.contains("none")) {
                    refuse(request, response, AuthorizeError.INTERACTION_REQUIRED);
                    return;
                }
                // the fresh login's demand stays: this request comes back after the second step
                response.sendRedirect(request.getContextPath()
                        + secondStep.stepUp(request, response, authentication, wayBack(request)));
                return;
            }
            if (demandMet) {
                forgetDemand(request, digest(request));
            }
            chain.doFilter(request, response);
            return;
        }
        if (prompt.contains("none")) {
            refuse(request, response, AuthorizeError.LOGIN_REQUIRED);
            return;
        }
        if (user != null || prompt.contains("login") || (maxAge != null && !maxAge.isEmpty()) || hintSubject != null
                || requiredSubject != null) {
            demand(request.getSession(), digest(request), now);
        }
        response.sendRedirect(request.getContextPath() + LocalRedirect.pageWithRedirect("/login/", null, wayBack(request)));
    }

    /** The first malformed parameter of steps 2, or null. */
    private static @Nullable AuthorizeError syntaxError(HttpServletRequest request) {
        for (String name : new String[] { "prompt", "max_age", "claims", "id_token_hint", "login_hint", "acr_values" }) {
            String[] values = request.getParameterValues(name);
            if (values != null && values.length > 1) {
                return AuthorizeError.REPEATED_PARAMETER;
            }
        }
        Set<String> prompt = words(request.getParameter("prompt"));
        if (prompt.contains("none") && prompt.size() > 1) {
            return AuthorizeError.INVALID_PROMPT;
        }
        String maxAge = request.getParameter("max_age");
        if (maxAge != null && !maxAge.isEmpty() && !MAX_AGE.matcher(maxAge).matches()) {
            return AuthorizeError.INVALID_MAX_AGE;
        }
        String claims = request.getParameter("claims");
        if (claims != null && !claims.isEmpty() && !RequestedClaims.isWellFormed(claims)) {
            return AuthorizeError.INVALID_CLAIMS;
        }
        return null;
    }

    /** OIDC Core §3.1.2.1: more than {@code maxAge} seconds since the login (an unknown login time is too old). */
    private static boolean olderThan(@Nullable Instant loginTime, long maxAge, Instant now) {
        return loginTime == null || Duration.between(loginTime, now).compareTo(Duration.ofSeconds(maxAge)) > 0;
    }

    /**
     * Whether a fresh login was asked for this request and the session's login is that one. The demand is
     * kept: it is forgotten ({@link #forgetDemand}) only when the request goes on to the endpoint, not when it
     * must first step up to a second factor ({@code acr_values=mfa}) and come back.
     */
    private boolean demandMet(HttpServletRequest request, String requestDigest, @Nullable Instant loginTime) {
        HttpSession session = request.getSession(false);
        if (session == null || loginTime == null
                || !(session.getAttribute(FRESH_LOGIN_DEMANDS) instanceof Map<?, ?> stored)) {
            return false;
        }
        Instant demandedAt = current(stored).get(requestDigest);
        return demandedAt != null && !loginTime.isBefore(demandedAt);
    }

    /** The demand of this request was met and the request goes on: one use. */
    private void forgetDemand(HttpServletRequest request, String requestDigest) {
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(FRESH_LOGIN_DEMANDS) instanceof Map<?, ?> stored) {
            Map<String, Instant> demands = current(stored);
            demands.remove(requestDigest);
            session.setAttribute(FRESH_LOGIN_DEMANDS, demands);
        }
    }

    private void demand(HttpSession session, String requestDigest, Instant now) {
        Map<String, Instant> demands = session.getAttribute(FRESH_LOGIN_DEMANDS) instanceof Map<?, ?> stored
                ? current(stored) : new LinkedHashMap<>();
        demands.remove(requestDigest);
        demands.put(requestDigest, now);
        while (demands.size() > MAX_DEMANDS) {
            demands.remove(demands.keySet().iterator().next());
        }
        // set again: Spring Session saves an attribute when it is set, not when the map changes
        session.setAttribute(FRESH_LOGIN_DEMANDS, demands);
    }

    /** The stored demands that have not expired, in the order they were made. */
    private LinkedHashMap<String, Instant> current(Map<?, ?> stored) {
        Instant oldest = clock.instant().minus(DEMAND_LIFETIME);
        LinkedHashMap<String, Instant> demands = new LinkedHashMap<>();
        stored.forEach((key, value) -> {
            if (key instanceof String digest && value instanceof Instant at && at.isAfter(oldest)) {
                demands.put(digest, at);
            }
        });
        return demands;
    }

    /** The same request, whether sent by GET or POST: a digest of its parameters, sorted. */
    private static String digest(HttpServletRequest request) {
        StringBuilder canonical = new StringBuilder();
        new TreeMap<>(request.getParameterMap()).forEach((name, values) -> {
            canonical.append(name.length()).append(':').append(name);
            for (String value : values) {
                canonical.append('|').append(value.length()).append(':').append(value);
            }
            canonical.append('\n');
        });
        return Secrets.sha256Hex(canonical.toString());
    }

    /** This request as a local path and query; a POST's form fields become the query. */
    /** This authorization request as a local GET URL (a POST's form fields as the query): the way back to it. */
    static String wayBack(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if ("GET".equals(request.getMethod())) {
            return request.getQueryString() == null ? path : path + "?" + request.getQueryString();
        }
        StringBuilder query = new StringBuilder();
        request.getParameterMap().forEach((name, values) -> {
            for (String value : values) {
                query.append(query.isEmpty() ? '?' : '&').append(UriUtils.encode(name, StandardCharsets.UTF_8))
                        .append('=').append(UriUtils.encode(value, StandardCharsets.UTF_8));
            }
        });
        return path + query;
    }

    private static Set<String> words(@Nullable String value) {
        return value == null || value.isBlank() ? Set.of()
                : new LinkedHashSet<>(Arrays.asList(value.trim().split(" +")));
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, AuthorizeError error)
            throws IOException {
        errors.onAuthenticationFailure(request, response, error.exception());
    }
}
