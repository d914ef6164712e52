package com.example.identity.api;

import java.io.IOException;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.context.DelegatingSecurityContextRepository;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

import tools.jackson.databind.json.JsonMapper;

import com.example.identity.Endpoints;
import com.example.identity.abuse.RateLimits;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.web.RestrictiveHeaders;

/**
 * Chain 2b, matches the rest of {@code /api/**}: token creation and the JSON routes for developers. A
 * request is authenticated either by {@code Authorization: Bearer} (see {@link BearerTokenFilter}), or by
 * the browser session of the web chain, whose POSTs then need the CSRF token ({@code _csrf} or
 * {@code X-CSRF-TOKEN}). Every refusal is JSON in the {@code {"ok":false,"error":...}} shape; no page,
 * no redirect. The session is read, never created here.
 */
@Configuration(proxyBeanMethods = false)
class ApiSecurityConfig {

    static final String NO_SESSION = "Sesión no iniciada";
    static final String DENIED = "Permiso denegado";
    static final String BAD_CSRF = "Token CSRF inválido";

    /** The routes for admins only, whose refusals put the role before the CSRF token. */
    private static final RequestMatcher ADMIN_ROUTES = PathPatternRequestMatcher.withDefaults().matcher(Endpoints.API_USERS_ALL);
    /** Decisions §24: the guest's own route, by bearer token only. */
    private static final RequestMatcher GUEST_CONVERSION = PathPatternRequestMatcher.withDefaults()
            .matcher(Endpoints.API_GUEST_CONVERSION);

    /**
     * Chain 2a, matches {@code /api/userinfo.php} only, the games' hot path: nothing but the bearer filter
     * (which applies the API's limits). No session is read or created, no CSRF (a GET), no anonymous user; the
     * controller answers {@code Falta token Bearer} itself when no token came.
     */
    @Bean
    @Order(Endpoints.API_USERINFO_CHAIN)
    SecurityFilterChain userinfoSecurityFilterChain(HttpSecurity http, ApiTokenValidator tokens, RateLimits limits,
            JsonMapper json, DPoPProofs proofs) throws Exception {
        var requestContexts = new RequestAttributeSecurityContextRepository();
        http
            .securityMatcher(Endpoints.API_USERINFO)
            .securityContext(context -> context.securityContextRepository(requestContexts))
            // no SessionManagementFilter nor ExceptionTranslationFilter: nothing here has a session or
            // throws access-denied; every request is permitted and the controller answers for itself
            .sessionManagement(session -> session.disable())
            .exceptionHandling(exceptions -> exceptions.disable())
            .authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
            .addFilterBefore(new BearerTokenFilter(tokens, limits, requestContexts, proofs), CsrfFilter.class)
            // the GETs are answered at the end of this chain, without Spring MVC's dispatch
            .addFilterAfter(new UserInfoEndpoint.AtChainEnd(json), AuthorizationFilter.class)
            .csrf(csrf -> csrf.disable())
            .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(RestrictiveHeaders.CONTENT_SECURITY_POLICY)))
            .anonymous(anonymous -> anonymous.disable())
            .requestCache(cache -> cache.disable())
            .formLogin(form -> form.disable())
            .httpBasic(basic -> basic.disable())
            .logout(logout -> logout.disable());
        return http.build();
    }

    @Bean
    @Order(Endpoints.API_CHAIN)
    SecurityFilterChain apiSecurityFilterChain(HttpSecurity http, ApiTokenValidator tokens,
            RateLimits limits, DPoPProofs proofs) throws Exception {
        var requestContexts = new RequestAttributeSecurityContextRepository();
        http
            .securityMatcher(Endpoints.API_ALL)
            // bearer authentications live in the request; logins are read from the web chain's session
            .securityContext(context -> context.securityContextRepository(
                    new DelegatingSecurityContextRepository(requestContexts, new HttpSessionSecurityContextRepository())))
            .authorizeHttpRequests(authorize -> authorize
                // the OpenAPI document (openapi/) describes contracts, no data: anyone may read it
                .requestMatchers(HttpMethod.GET, Endpoints.API_OPENAPI, Endpoints.API_OPENAPI_YAML).permitAll()
                // a guest's game, with the guest's access token (decisions §24): the controller checks it
                .requestMatchers(Endpoints.API_GUEST_CONVERSION).permitAll()
                // token creation needs a session (a bearer is no session: the controller says so)
                .requestMatchers(Endpoints.API_CREATE_TOKEN).access(ApiSecurityConfig::developerInGoodStanding)
                // the management routes (decisions §11): a bearer token must be of scope gestion (§15)
                .requestMatchers(Endpoints.API_TOKENS_ALL, Endpoints.API_CLIENTS_ALL).access(ApiSecurityConfig::manager)
                // the administration API (decisions §23): the same, and the caller is an admin
                .requestMatchers(Endpoints.API_USERS_ALL).access(ApiSecurityConfig::administrator)
                // sanctions (decisions §26): the same as the management routes, or a servidor application's token
                .requestMatchers(Endpoints.API_SANCTIONS_ALL).access(ApiSecurityConfig::sanctioner)
                .anyRequest().access(ApiSecurityConfig::developerInGoodStanding))
            .addFilterBefore(new BearerTokenFilter(tokens, limits, requestContexts, proofs), CsrfFilter.class)
            // the guests' route takes a bearer token only, never a session: nothing for CSRF to protect
            .csrf(csrf -> csrf.ignoringRequestMatchers(BearerTokenFilter::presentsBearer, GUEST_CONVERSION))
            .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(RestrictiveHeaders.CONTENT_SECURITY_POLICY)))
            // an ended session (account disabled or role changed) is deleted from the database
            // (session/SessionConfig): no session at all, on every instance
            .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.NEVER))
            .requestCache(cache -> cache.disable())
            .formLogin(form -> form.disable())
            .httpBasic(basic -> basic.disable())
            .logout(logout -> logout.disable())
            .exceptionHandling(ex -> ex
                .authenticationEntryPoint((request, response, e) ->
                        ApiJson.error(response, HttpServletResponse.SC_UNAUTHORIZED, NO_SESSION))
                .accessDeniedHandler(ApiSecurityConfig::denied));
        return http.build();
    }

    /**
     * Refusals in the order session, role, CSRF: a caller without a session hears that first, even when
     * the CSRF filter was the one that stopped the request.
     */
    static void denied(HttpServletRequest request, HttpServletResponse response, AccessDeniedException exception)
            throws IOException {
        Authentication caller = SecurityContextHolder.getContext().getAuthentication();
        if (caller == null || caller instanceof AnonymousAuthenticationToken || !caller.isAuthenticated()) {
            ApiJson.error(response, HttpServletResponse.SC_UNAUTHORIZED, NO_SESSION);
        }
        else if (!ApiCaller.isDeveloper(caller) || (ADMIN_ROUTES.matches(request) && !ApiCaller.isAdmin(caller))) {
            ApiJson.error(response, HttpServletResponse.SC_FORBIDDEN, DENIED);
        }
        else if (exception instanceof CsrfException) {
            ApiJson.error(response, HttpServletResponse.SC_FORBIDDEN, BAD_CSRF);
        }
        else {
            ApiJson.error(response, HttpServletResponse.SC_FORBIDDEN, DENIED);
        }
    }

    /**
     * A {@code developer_api} or {@code admin} caller, who is not in the middle of replacing a one-time
     * password (that session may do nothing else until then).
     */
    static AuthorizationDecision developerInGoodStanding(Supplier<? extends Authentication> authentication,
            RequestAuthorizationContext context) {
        Authentication caller = authentication.get();
        boolean pendingPasswordChange = caller.getPrincipal() instanceof AccountPrincipal user
                && user.passwordChangeRequired();
        return new AuthorizationDecision(caller.isAuthenticated() && !(caller instanceof AnonymousAuthenticationToken)
                && ApiCaller.isDeveloper(caller) && !pendingPasswordChange);
    }

    /** {@link #manager}, and the caller is an {@code admin} (decisions §23). */
    static AuthorizationDecision administrator(Supplier<? extends Authentication> authentication,
            RequestAuthorizationContext context) {
        return new AuthorizationDecision(manager(authentication, context).isGranted()
                && ApiCaller.isAdmin(authentication.get()));
    }

    /**
     * {@link #manager}, or the own access token of a {@code servidor} application (decisions §26: a game's back end
     * sanctions a cheater in its owner's applications; the controller keeps it there).
     */
    static AuthorizationDecision sanctioner(Supplier<? extends Authentication> authentication,
            RequestAuthorizationContext context) {
        return new AuthorizationDecision(manager(authentication, context).isGranted()
                || ApiCaller.isServer(authentication.get()));
    }

    /** {@link #developerInGoodStanding}, and a bearer token of scope {@code gestion} (decisions §15). */
    static AuthorizationDecision manager(Supplier<? extends Authentication> authentication,
            RequestAuthorizationContext context) {
        return new AuthorizationDecision(developerInGoodStanding(authentication, context).isGranted()
                && ApiCaller.mayManage(authentication.get()));
    }
}
