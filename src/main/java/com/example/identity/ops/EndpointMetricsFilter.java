package com.example.identity.ops;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;

/**
 * Counts the requests of the token and userinfo endpoints by outcome, from the answer's status, outside
 * every other filter (so rate limits and outages count too):
 * {@code identity_token_requests_total{grant_type,outcome}}, {@code identity_userinfo_requests_total{endpoint,outcome}},
 * and times the code exchange ({@code identity_code_exchange_seconds{outcome}}, the whole
 * {@code authorization_code} request). Every meter is registered up front; a request only picks one from
 * an array, so the userinfo hot path builds no tags and no map. Mapped only to these paths.
 */
class EndpointMetricsFilter extends OncePerRequestFilter {

    static final String TOKEN_REQUESTS = "identity.token.requests";
    static final String USERINFO_REQUESTS = "identity.userinfo.requests";
    static final String CODE_EXCHANGE = "identity.code.exchange";
    static final String[] USERINFO_PATHS = { Endpoints.API_USERINFO, Endpoints.USERINFO };

    /** grant_type values, bounded: the parameter is the client's to choose. */
    static final String[] GRANT_TYPES = { "authorization_code", "refresh_token", "other", "none" };
    static final String[] TOKEN_OUTCOMES = { "success", "invalid_request", "invalid_client", "method_not_allowed",
            "rate_limited", "unavailable", "error", "other" };
    static final String[] USERINFO_OUTCOMES = { "success", "missing_token", "invalid_token", "forbidden",
            "rate_limited", "unavailable", "error", "other" };

    private final Counter[][] tokenRequests = new Counter[GRANT_TYPES.length][TOKEN_OUTCOMES.length];
    private final Counter[][] userinfoRequests = new Counter[USERINFO_PATHS.length][USERINFO_OUTCOMES.length];
    private final Timer exchangeSucceeded;
    private final Timer exchangeFailed;

    EndpointMetricsFilter(MeterRegistry registry) {
        for (int g = 0; g < GRANT_TYPES.length; g++) {
            for (int o = 0; o < TOKEN_OUTCOMES.length; o++) {
                tokenRequests[g][o] = Counter.builder(TOKEN_REQUESTS).description("Requests to /oauth/token.php")
                        .tag("grant_type", GRANT_TYPES[g]).tag("outcome", TOKEN_OUTCOMES[o]).register(registry);
            }
        }
        for (int e = 0; e < USERINFO_PATHS.length; e++) {
            for (int o = 0; o < USERINFO_OUTCOMES.length; o++) {
                userinfoRequests[e][o] = Counter.builder(USERINFO_REQUESTS).description("Userinfo requests")
                        .tag("endpoint", USERINFO_PATHS[e]).tag("outcome", USERINFO_OUTCOMES[o]).register(registry);
            }
        }
        exchangeSucceeded = exchangeTimer(registry, "success");
        exchangeFailed = exchangeTimer(registry, "failure");
    }

    private static Timer exchangeTimer(MeterRegistry registry, String outcome) {
        return Timer.builder(CODE_EXCHANGE).description("Authorization code exchanges at /oauth/token.php")
                .tag("outcome", outcome).register(registry);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI();
        int userinfo = path.equals(USERINFO_PATHS[0]) ? 0 : path.equals(USERINFO_PATHS[1]) ? 1 : -1;
        boolean token = userinfo < 0 && path.equals(Endpoints.TOKEN);
        if (userinfo < 0 && !token) {
            chain.doFilter(request, response);
            return;
        }
        long start = token ? System.nanoTime() : 0;
        boolean failed = true;
        try {
            chain.doFilter(request, response);
            failed = false;
        }
        finally {
            int status = failed ? 500 : response.getStatus();
            if (userinfo >= 0) {
                userinfoRequests[userinfo][userinfoOutcome(status, response)].increment();
            }
            else {
                int grant = grantType(request);
                int outcome = tokenOutcome(status);
                tokenRequests[grant][outcome].increment();
                if (grant == 0 && "POST".equals(request.getMethod())) {
                    (outcome == 0 ? exchangeSucceeded : exchangeFailed).record(System.nanoTime() - start,
                            TimeUnit.NANOSECONDS);
                }
            }
        }
    }

    private static int grantType(HttpServletRequest request) {
        String grant;
        try {
            grant = "POST".equals(request.getMethod()) ? request.getParameter("grant_type") : null;
        }
        catch (RuntimeException unreadable) {
            grant = "";
        }
        return grant == null ? 3 : grant.equals(GRANT_TYPES[0]) ? 0 : grant.equals(GRANT_TYPES[1]) ? 1 : 2;
    }

    static int tokenOutcome(int status) {
        return switch (status) {
            case 200 -> 0;
            case 400 -> 1;
            case 401 -> 2;
            case 405 -> 3;
            case 429 -> 4;
            case 503 -> 5;
            default -> status >= 500 ? 6 : 7;
        };
    }

    static int userinfoOutcome(int status, HttpServletResponse response) {
        return switch (status) {
            case 200 -> 0;
            case 401 -> {
                String challenge = response.getHeader(HttpHeaders.WWW_AUTHENTICATE);
                yield challenge != null && challenge.contains("invalid_token") ? 2 : 1;
            }
            case 403 -> 3;
            case 429 -> 4;
            case 503 -> 5;
            default -> status >= 500 ? 6 : 7;
        };
    }
}
