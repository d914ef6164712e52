package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.abuse.LoginThrottle;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.audit.AuditEvent;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.site.WebChainSlice;

/** {@code /login/segundo-paso}: the code of a password login waiting in the session, throttled, five tries. */
@WebMvcTest(SecondStepController.class)
@Import(WebChainSlice.class)
@RecordApplicationEvents
class SecondStepControllerTest {

    static final AccountPrincipal DEV = WebChainSlice.account(7, Role.DEVELOPER_API);
    static final String WRONG = "Código incorrecto. Escribe el código de 6 cifras que muestra tu aplicación ahora, "
            + "o uno de tus códigos de recuperación.";

    @Autowired
    MockMvc mvc;

    @Autowired
    ApplicationEvents events;

    @MockitoBean
    SecondStep step;
    @MockitoBean
    SecondFactors factors;
    @MockitoBean
    LoginThrottle throttle;
    @MockitoBean
    AccountService accounts;
    @MockitoBean
    RegisteredClientRepository clients;

    MockHttpSession session = new MockHttpSession();
    LoginThrottle.Attempt attempt = mock(LoginThrottle.Attempt.class);

    void waiting(boolean enrol, int failures) {
        var password = UsernamePasswordAuthenticationToken.authenticated(DEV, null, DEV.getAuthorities());
        session.setAttribute(SecondStep.PENDING, new SecondStep.PendingLogin(password, "/cuenta/", enrol, failures));
    }

    @BeforeEach
    void aUnitIsFree() {
        when(throttle.tryAcquire("persona7@example.com", "127.0.0.1")).thenReturn(attempt);
        when(step.hasTotp(DEV)).thenReturn(true);
    }

    @Test
    void withoutALoginWaitingBothPagesLeadToTheLogin() throws Exception {
        mvc.perform(get("/login/segundo-paso")).andExpect(redirectedUrl("/login/"));
        mvc.perform(post("/login/segundo-paso").param("codigo", "123456").with(csrf())).andExpect(redirectedUrl("/login/"));
        waiting(true, 0);
        mvc.perform(get("/login/segundo-paso").session(session)).andExpect(redirectedUrl("/login/segundo-paso/alta"));
        verify(factors, never()).verify(anyLong(), anyString());
    }

    @Test
    void theFormNamesTheAccount() throws Exception {
        waiting(false, 0);
        mvc.perform(get("/login/segundo-paso").session(session))
            .andExpect(status().isOk())
            .andExpect(view().name("signin/second-step"))
            .andExpect(header().string("Cache-Control", "no-store"))
            .andExpect(model().attribute("email", "persona7@example.com"))
            .andExpect(model().attribute("totp", true))
            .andExpect(model().attribute("passkey", false))
            .andExpect(model().attribute("redirect", "/cuenta/"));
    }

    @Test
    void aWrongCodeIsCountedAndAskedAgain() throws Exception {
        waiting(false, 0);
        when(factors.verify(7, "000000")).thenReturn(SecondFactors.Proof.NONE);
        mvc.perform(post("/login/segundo-paso").session(session).param("codigo", "000000").with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("signin/second-step"))
            .andExpect(model().attribute("error", WRONG));
        verify(attempt).failed();
        assertThat(((SecondStep.PendingLogin) session.getAttribute(SecondStep.PENDING)).failures()).isEqualTo(1);
        assertThat(events.stream(AuditEvent.class)).containsExactly(
                new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "segundo factor", "persona7@example.com"));
    }

    @Test
    void theFifthWrongCodeEndsTheLogin() throws Exception {
        waiting(false, 4);
        when(factors.verify(7, "000000")).thenReturn(SecondFactors.Proof.NONE);
        when(attempt.failed()).thenReturn(true);
        mvc.perform(post("/login/segundo-paso").session(session).param("codigo", "000000").with(csrf()))
            .andExpect(redirectedUrl("/login/?error=1"))
            .andExpect(request().sessionAttributeDoesNotExist(SecondStep.PENDING));
        assertThat(events.stream(AuditEvent.class).map(AuditEvent::type))
                .containsExactly(AuditEvent.Type.LOGIN_FAILED, AuditEvent.Type.LOGIN_LOCKED);
    }

    @Test
    void aLockedPairIsRefusedBeforeTheCodeIsRead() throws Exception {
        waiting(false, 0);
        when(throttle.tryAcquire("persona7@example.com", "127.0.0.1")).thenReturn(null);
        mvc.perform(post("/login/segundo-paso").session(session).param("codigo", "123456").with(csrf()))
            .andExpect(status().isTooManyRequests())
            .andExpect(model().attribute("error", "Demasiados intentos. Espera un momento e inténtalo de nuevo más tarde."));
        verify(factors, never()).verify(anyLong(), anyString());
    }

    @Test
    void aRightCodeLogsInAndGoesOn() throws Exception {
        waiting(false, 0);
        when(factors.verify(7, "123456")).thenReturn(SecondFactors.Proof.RECOVERY_CODE);
        when(step.complete(any(), any(), any())).thenReturn(true);
        mvc.perform(post("/login/segundo-paso").session(session).param("codigo", "123456").with(csrf()))
            .andExpect(redirectedUrl("/cuenta/"));
        verify(attempt).succeeded();
        assertThat(events.stream(AuditEvent.class)).containsExactly(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED,
                "con código de recuperación", "persona7@example.com"));
    }

    @Test
    void anAccountDisabledMeanwhileIsNotLoggedIn() throws Exception {
        waiting(false, 0);
        when(factors.verify(7, "123456")).thenReturn(SecondFactors.Proof.TOTP);
        mvc.perform(post("/login/segundo-paso").session(session).param("codigo", "123456").with(csrf()))
            .andExpect(redirectedUrl("/login/?error=1"));
        verify(attempt, never()).succeeded();
        assertThat(events.stream(AuditEvent.class)).isEmpty();
    }

    @Test
    void theCodeNeedsTheCsrfToken() throws Exception {
        waiting(false, 0);
        mvc.perform(post("/login/segundo-paso").session(session).param("codigo", "123456"))
            .andExpect(status().isForbidden());
        verify(factors, never()).verify(anyLong(), anyString());
    }
}
