package com.example.identity.passkey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.util.List;

import jakarta.servlet.FilterChain;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;
import com.example.identity.account.SecondFactorAdded;
import com.example.identity.mfa.RecentLogin;

/** The check in front of Spring Security's passkey registration: a recent login, and the other sessions end after. */
class PasskeyRegistrationTest {

    static final AccountPrincipal ANA = new AccountPrincipal(3, "Ana", "ana@example.com", Role.USER, true, false, null);
    static final Passkeys.Passkey KEY = new Passkeys.Passkey("AbC", "portátil", null, null);

    RecentLogin recentLogin = mock(RecentLogin.class);
    Passkeys passkeys = mock(Passkeys.class);
    ApplicationEventPublisher events = mock(ApplicationEventPublisher.class);
    PasskeyRegistration filter = new PasskeyRegistration(recentLogin, passkeys, events);

    @BeforeEach
    void loggedIn() {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(ANA, null, ANA.getAuthorities()));
    }

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    static MockHttpServletRequest post(String path) {
        return new MockHttpServletRequest("POST", path);
    }

    @Test
    void anOldLoginIsAskedForThePassword() throws Exception {
        var response = new MockHttpServletResponse();
        var chain = new MockFilterChain();
        filter.doFilter(post("/webauthn/register/options"), response, chain);
        assertThat(chain.getRequest()).as("Spring's registration not reached").isNull();
        assertThat(response.getStatus()).isEqualTo(403);
        assertThat(response.getContentType()).startsWith("application/json");
        assertThat(response.getHeader("Cache-Control")).isEqualTo("no-store");
        assertThat(response.getContentAsString()).isEqualTo("{\"error\":\"Confirma tu contraseña para añadir una llave de acceso.\"}");
    }

    @Test
    void aRecentLoginGetsItsOptions() throws Exception {
        when(recentLogin.isRecent(any(), any())).thenReturn(true);
        var chain = new MockFilterChain();
        filter.doFilter(post("/webauthn/register/options"), new MockHttpServletResponse(), chain);
        assertThat(chain.getRequest()).isNotNull();
        verifyNoInteractions(passkeys, events);
    }

    @Test
    void aPasskeyAddedEndsTheOtherSessionsAndTellsTheAddress() throws Exception {
        when(recentLogin.isRecent(any(), any())).thenReturn(true);
        when(passkeys.of("ana@example.com")).thenReturn(List.of(), List.of(KEY));
        var request = post("/webauthn/register");
        request.setRemoteAddr("203.0.113.9");
        String sessionId = request.getSession().getId();
        filter.doFilter(request, new MockHttpServletResponse(), new MockFilterChain());
        var added = ArgumentCaptor.forClass(SecondFactorAdded.class);
        verify(events).publishEvent(added.capture());
        assertThat(added.getValue()).isEqualTo(new SecondFactorAdded(3, "ana@example.com", SecondFactorAdded.Factor.PASSKEY,
                sessionId, "203.0.113.9"));
    }

    @Test
    void aRefusedRegistrationTellsNobody() throws Exception {
        when(recentLogin.isRecent(any(), any())).thenReturn(true);
        when(passkeys.of("ana@example.com")).thenReturn(List.of(KEY), List.of(KEY));
        filter.doFilter(post("/webauthn/register"), new MockHttpServletResponse(), new MockFilterChain());
        verifyNoInteractions(events);
    }

    @Test
    void otherRequestsAndVisitorsPassUntouched() throws Exception {
        for (var request : List.of(new MockHttpServletRequest("GET", "/webauthn/register/options"), post("/login/webauthn"),
                post("/cuenta/seguridad"))) {
            FilterChain chain = new MockFilterChain();
            filter.doFilter(request, new MockHttpServletResponse(), chain);
            assertThat(((MockFilterChain) chain).getRequest()).as(request.getMethod() + " " + request.getRequestURI()).isNotNull();
        }
        SecurityContextHolder.clearContext();
        var chain = new MockFilterChain();
        filter.doFilter(post("/webauthn/register"), new MockHttpServletResponse(), chain);
        assertThat(chain.getRequest()).as("Spring Security refuses a visitor itself").isNotNull();
        verifyNoInteractions(recentLogin, passkeys, events);
    }
}
