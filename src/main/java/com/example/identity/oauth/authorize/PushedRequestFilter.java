package com.example.identity.oauth.authorize;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.util.MultiValueMap;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.store.PushedRequests;

/**
 * Pushed authorization requests at the authorization endpoint (RFC 9126 §4, decisions §28), first of its steps.
 *
 * <p>{@code /oauth/authorize.php?client_id=...&request_uri=urn:ietf:params:oauth:request_uri:...}: the request pushed
 * to {@code /oauth/par.php} is taken from the database ({@link PushedRequests#take}: that client's, not expired, once,
 * whichever instance it was pushed to), and the endpoint goes on with its parameters in place of the browser's, as if
 * the browser had sent them: Spring Authorization Server's validation, {@link AuthenticationRequestFilter},
 * {@code PasswordChangeGate}, {@link ConsentFilter} and the code see exactly what the client pushed, so every check of
 * a request sent directly applies to it, with the same refusals. A {@code request_uri} of that shape that cannot be
 * taken (never pushed, taken already, expired, another client's) is the Spanish error page, status 400 (no redirect
 * URI is known yet); any other {@code request_uri} goes on to be answered {@code request_uri_not_supported} as before.
 * A POST with a {@code request_uri} is first sent to the same request as a GET (303), which carries the session cookie
 * that a cross-site POST leaves out ({@code SameSite=Lax}), so that the request is taken in the user's own session.
 *
 * <p>The journey goes on from there as a plain request: the login page, the second step and the consent page lead
 * back to the authorization request as a local URL ({@code /oauth/authorize.php?} and the pushed parameters), since
 * the {@code request_uri} is spent. The session remembers (a digest of) that request as one that was pushed, for
 * {@link #LIFETIME} or until the answer goes to the client's redirect URI, so that an application that requires pushed
 * requests ({@code par_obligatorio}) gets its user back: for such an application a request without
 * {@code request_uri} is refused ({@link AuthorizeError#PAR_REQUIRED}, to the redirect URI when it is verified) unless
 * it is one this session took from {@code /oauth/par.php}. Sessions live in the database: the return may come to any
 * instance.
 */
final class PushedRequestFilter extends OncePerRequestFilter {

    /** Session attribute: digest of a pushed request's parameters → when it was taken. */
    static final String TAKEN = PushedRequestFilter.class.getName() + ".taken";
    /** How long a taken request may come back (a login, a second factor, a consent page on the way). */
    static final Duration LIFETIME = Duration.ofMinutes(30);
    /** At most this many are remembered per session, the oldest dropped first. */
    static final int MAX_TAKEN = 16;
    /** The page's message for a {@code request_uri} of {@code /oauth/par.php} that cannot be taken. */
    static final String UNUSABLE = "request_uri inválido, caducado o ya utilizado";

    private final RequestMatcher endpoint;
    private final PushedRequests pushed;
    private final RegisteredClientRepository clients;
    private final AuthorizeErrorResponder errors;
    private final Clock clock;

    PushedRequestFilter(RequestMatcher endpoint, PushedRequests pushed, RegisteredClientRepository clients,
            AuthorizeErrorResponder errors, Clock clock) {
        this.endpoint = endpoint;
        this.pushed = pushed;
        this.clients = clients;
        this.errors = errors;
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!endpoint.matches(request)) {
            chain.doFilter(request, response);
            return;
        }
        String[] requestUris = request.getParameterValues(OAuth2ParameterNames.REQUEST_URI);
        if (requestUris == null) {
            direct(request, response, chain);
        }
        else if (requestUris.length == 1 && PushedRequests.isPushed(requestUris[0])) {
            take(request, response, chain, requestUris[0]);
        }
        else {
            chain.doFilter(request, response); // not one of /oauth/par.php's: request_uri_not_supported, as ever
        }
    }

    /** A request that names a pushed one: taken, then the endpoint's steps with its parameters. */
    private void take(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String requestUri)
            throws ServletException, IOException {
        String[] clientIds = request.getParameterValues(OAuth2ParameterNames.CLIENT_ID);
        String clientId = clientIds != null && clientIds.length == 1 ? clientIds[0] : null;
        if ("POST".equals(request.getMethod())) {
            var get = UriComponentsBuilder.fromPath(Endpoints.AUTHORIZE);
            if (clientId != null) {
                get.queryParam(OAuth2ParameterNames.CLIENT_ID, "{client}");
            }
            get.queryParam(OAuth2ParameterNames.REQUEST_URI, "{uri}");
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader(HttpHeaders.LOCATION, request.getContextPath() + (clientId == null
                    ? get.encode().buildAndExpand(requestUri) : get.encode().buildAndExpand(clientId, requestUri)).toUriString());
            return;
        }
        MultiValueMap<String, String> parameters = clientId == null ? null : pushed.take(requestUri, clientId).orElse(null);
        if (parameters == null) {
            errors.page(request, response, UNUSABLE);
            return;
        }
        var taken = new PushedAuthorizationRequest(request, parameters);
        String digest = digest(taken.getParameterMap());
        remember(request.getSession(), digest);
        chain.doFilter(taken, response);
        forgetWhenAnswered(taken, response, digest);
    }

    /**
     * A request without {@code request_uri}: as before, unless its application requires pushed requests; then only
     * one that this session took from {@code /oauth/par.php} goes on.
     */
    private void direct(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String[] clientIds = request.getParameterValues(OAuth2ParameterNames.CLIENT_ID);
        RegisteredClient client = clientIds != null && clientIds.length == 1 ? clients.findByClientId(clientIds[0]) : null;
        if (client == null || !DatabaseRegisteredClientRepository.requiresPushedRequests(client)) {
            chain.doFilter(request, response);
            return;
        }
        String digest = digest(request.getParameterMap());
        if (!wasTaken(request.getSession(false), digest)) {
            errors.onAuthenticationFailure(request, response, AuthorizeError.PAR_REQUIRED.exception());
            return;
        }
        chain.doFilter(request, response);
        forgetWhenAnswered(request, response, digest);
    }

    /** Remembers that this session took the request of {@code digest} (set again: Spring Session saves on set). */
    private void remember(HttpSession session, String digest) {
        Map<String, Instant> taken = current(session);
        taken.remove(digest);
        taken.put(digest, clock.instant());
        while (taken.size() > MAX_TAKEN) {
            taken.remove(taken.keySet().iterator().next());
        }
        session.setAttribute(TAKEN, taken);
    }

    private boolean wasTaken(@Nullable HttpSession session, String digest) {
        return session != null && current(session).containsKey(digest);
    }

    /** Once the answer went to the client's redirect URI (a code, or an error), the request is done. */
    private void forgetWhenAnswered(HttpServletRequest request, HttpServletResponse response, String digest) {
        String location = response.getHeader(HttpHeaders.LOCATION);
        String redirectUri = request.getParameter(OAuth2ParameterNames.REDIRECT_URI);
        HttpSession session = request.getSession(false);
        if (location == null || redirectUri == null || !location.startsWith(redirectUri) || session == null) {
            return;
        }
        Map<String, Instant> taken = current(session);
        if (taken.remove(digest) != null) {
            session.setAttribute(TAKEN, taken);
        }
    }

    /** The remembered requests that have not expired, oldest first. */
    private LinkedHashMap<String, Instant> current(HttpSession session) {
        Instant oldest = clock.instant().minus(LIFETIME);
        LinkedHashMap<String, Instant> taken = new LinkedHashMap<>();
        if (session.getAttribute(TAKEN) instanceof Map<?, ?> stored) {
            stored.forEach((key, value) -> {
                if (key instanceof String digest && value instanceof Instant at && at.isAfter(oldest)) {
                    taken.put(digest, at);
                }
            });
        }
        return taken;
    }

    /** The same parameters, in any order: a digest of them, sorted. */
    static String digest(Map<String, String[]> parameters) {
        StringBuilder canonical = new StringBuilder();
        new TreeMap<>(parameters).forEach((name, values) -> {
            canonical.append(name.length()).append(':').append(name);
            for (String value : values) {
                canonical.append('|').append(value.length()).append(':').append(value);
            }
            canonical.append('\n');
        });
        return Secrets.sha256Hex(canonical.toString());
    }

    /**
     * The authorization request as the client pushed it: its parameters instead of the browser's, a GET whose query
     * string is those parameters (what the pages that lead back to it see), the rest of the browser's request as it
     * came (cookies, headers, addresses).
     */
    static final class PushedAuthorizationRequest extends HttpServletRequestWrapper {

        private final Map<String, String[]> parameters;
        private final String query;

        PushedAuthorizationRequest(HttpServletRequest request, MultiValueMap<String, String> pushed) {
            super(request);
            Map<String, String[]> copy = new LinkedHashMap<>();
            pushed.forEach((name, values) -> copy.put(name, values.toArray(String[]::new)));
            this.parameters = Collections.unmodifiableMap(copy);
            this.query = PushedRequests.encode(pushed);
        }

        @Override
        public String getMethod() {
            return "GET";
        }

        @Override
        public String getQueryString() {
            return query;
        }

        @Override
        public @Nullable String getParameter(String name) {
            String[] values = parameters.get(name);
            return values == null ? null : values[0];
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            return parameters;
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(parameters.keySet());
        }

        @Override
        public String @Nullable [] getParameterValues(String name) {
            String[] values = parameters.get(name);
            return values == null ? null : values.clone();
        }
    }
}
