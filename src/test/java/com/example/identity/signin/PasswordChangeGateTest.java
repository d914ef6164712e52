package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;

/** A one-time password leads to the password page, and only there; and the login redirect of a visitor. */
class PasswordChangeGateTest {

    static final AccountPrincipal MUST_CHANGE = new AccountPrincipal(4, "Ana", "ana@example.com", Role.USER, true, true, null);
    static final AccountPrincipal CHANGED = new AccountPrincipal(5, "Bea", "bea@example.com", Role.USER, true, false, null);

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    static void loggedIn(AccountPrincipal user) {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(user, null, user.getAuthorities()));
    }

    MockHttpServletResponse gate(String method, String path, String query) throws Exception {
        var request = new MockHttpServletRequest(method, path);
        request.setQueryString(query);
        var response = new MockHttpServletResponse();
        var chain = new MockFilterChain();
        new PasswordChangeGate().doFilter(request, response, chain);
        assertThat(chain.getRequest() != null).as("passed on").isEqualTo(response.getRedirectedUrl() == null);
        return response;
    }

    @Test
    void aPageIsSentToThePasswordFormWithTheWayBack() throws Exception {
        loggedIn(MUST_CHANGE);
        assertThat(gate("GET", "/oauth/authorize.php", "client_id=a&state=b").getRedirectedUrl())
                .isEqualTo("/cuenta/contrasena?redirect=%2Foauth%2Fauthorize.php%3Fclient_id%3Da%26state%3Db");
    }

    @Test
    void aPostIsRefusedWithoutAWayBack() throws Exception {
        loggedIn(MUST_CHANGE);
        assertThat(gate("POST", "/dashboard/tokens/create", null).getRedirectedUrl()).isEqualTo("/cuenta/contrasena");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/cuenta/contrasena", "/logout", "/login/", "/error", "/favicon.ico", "/css/app.css", "/js/app.js" })
    void whatThePasswordPageNeedsStaysOpen(String path) throws Exception {
        loggedIn(MUST_CHANGE);
        assertThat(gate("GET", path, null).getRedirectedUrl()).isNull();
    }

    @Test
    void othersAndVisitorsPass() throws Exception {
        assertThat(gate("GET", "/cuenta/", null).getRedirectedUrl()).as("a visitor").isNull();
        loggedIn(CHANGED);
        assertThat(gate("GET", "/cuenta/", null).getRedirectedUrl()).isNull();
    }

    @Test
    void aVisitorIsSentToTheLoginWithTheWayBack() throws Exception {
        var request = new MockHttpServletRequest("GET", "/dashboard/developer.php");
        request.setQueryString("page=2&q=a%20b");
        var response = new MockHttpServletResponse();
        new LoginRedirectEntryPoint().commence(request, response, null);
        assertThat(response.getRedirectedUrl()).isEqualTo("/login/?redirect=%2Fdashboard%2Fdeveloper.php%3Fpage%3D2%26q%3Da%2520b");

        request.setQueryString("q=a b"); // not a path a page may redirect to (LocalRedirect): no way back
        var unsafe = new MockHttpServletResponse();
        new LoginRedirectEntryPoint().commence(request, unsafe, null);
        assertThat(unsafe.getRedirectedUrl()).isEqualTo("/login/");
    }
}
