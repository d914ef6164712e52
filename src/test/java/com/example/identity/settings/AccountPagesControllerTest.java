package com.example.identity.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.EmailChanges;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.mfa.RecentLogin;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.passkey.Passkeys;
import com.example.identity.session.OpenSessions;
import com.example.identity.signin.SecondStep;
import com.example.identity.site.WebChainSlice;

/** {@code /cuenta/}, the e-mail change and {@code /cuenta/seguridad}, with every service mocked. */
@WebMvcTest(AccountPagesController.class)
@Import(WebChainSlice.class)
@RecordApplicationEvents
class AccountPagesControllerTest {

    static final AccountPrincipal ANA = WebChainSlice.account(3, Role.USER);

    @Autowired
    MockMvc mvc;

    @Autowired
    ApplicationEvents events;

    @MockitoBean
    OpenSessions sessions;
    @MockitoBean
    SecondFactors factors;
    @MockitoBean
    SecondStep secondStep;
    @MockitoBean
    Passkeys passkeys;
    @MockitoBean
    EmailChanges emailChanges;
    @MockitoBean
    AccountService accounts;
    @MockitoBean
    RecentLogin recentLogin;

    @BeforeEach
    void theAccountAsStored() {
        var stored = new UserAccount("Ana María", "persona3@example.com", "hash", Role.USER, Instant.EPOCH);
        ReflectionTestUtils.setField(stored, "id", 3L);
        when(accounts.findById(3)).thenReturn(Optional.of(stored));
    }

    static <E extends AccountService.InvalidAccountException> E refusal(Class<E> type, String field, String message) {
        E e = mock(type);
        when(e.field()).thenReturn(field);
        when(e.getMessage()).thenReturn(message);
        return e;
    }

    @Test
    void theHomeShowsTheAccountAsStoredNow() throws Exception {
        mvc.perform(get("/cuenta/").with(user(ANA)))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/home"))
            .andExpect(result -> assertThat(((AccountPrincipal) result.getModelAndView().getModel().get("account"))
                    .primerNombre()).isEqualTo("Ana María"))
            .andExpect(model().attribute("emailSent", false))
            .andExpect(model().attribute("nameChanged", false))
            .andExpect(model().attribute("throttled", false));
        mvc.perform(get("/cuenta").param("correo", "enviado").param("nombre", "cambiado").param("bloqueado", "").with(user(ANA)))
            .andExpect(model().attribute("emailSent", true))
            .andExpect(model().attribute("nameChanged", true))
            .andExpect(model().attribute("throttled", true));
    }

    @Test
    void aNameIsChanged() throws Exception {
        mvc.perform(post("/cuenta/nombre").param("primer_nombre", "Ana").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/?nombre=cambiado"));
        verify(accounts).rename(3, "Ana");
    }

    @Test
    void aBadNameIsAskedAgain() throws Exception {
        doThrow(refusal(AccountService.InvalidAccountException.class, "primer_nombre", "El nombre es obligatorio"))
                .when(accounts).rename(3, " ");
        mvc.perform(post("/cuenta/nombre").param("primer_nombre", " ").with(user(ANA)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("settings/home"))
            .andExpect(model().attribute("nameError", "El nombre es obligatorio"))
            .andExpect(model().attribute("newName", " "));
    }

    @Test
    void anAddressChangeIsSentOrRefusedWithItsStatus() throws Exception {
        mvc.perform(post("/cuenta/correo").param("correo", "nueva@example.com").param("contrasena", "clave")
                .with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/?correo=enviado"));
        verify(emailChanges).request(3, "nueva@example.com", "clave");

        doThrow(refusal(AccountService.InvalidAccountException.class, "contrasena", "La contraseña no es correcta"))
                .when(emailChanges).request(3, "otra@example.com", "mala");
        mvc.perform(post("/cuenta/correo").param("correo", "otra@example.com").param("contrasena", "mala")
                .with(user(ANA)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("emailErrors", Map.of("contrasena", "La contraseña no es correcta")))
            .andExpect(model().attribute("newEmail", "otra@example.com"));
    }

    @Test
    void aSpentBudgetIs429AndAMailNotSentIs503() throws Exception {
        var tooMany = refusal(EmailChanges.TooManyRequests.class, "correo", "Demasiadas solicitudes de cambio de correo.");
        when(tooMany.retryAfterSeconds()).thenReturn(120L);
        doThrow(tooMany).when(emailChanges).request(3, "a@example.com", "clave");
        mvc.perform(post("/cuenta/correo").param("correo", "a@example.com").param("contrasena", "clave")
                .with(user(ANA)).with(csrf()))
            .andExpect(status().isTooManyRequests())
            .andExpect(header().string("Retry-After", "120"))
            .andExpect(model().attribute("emailErrors", Map.of("correo", "Demasiadas solicitudes de cambio de correo.")));

        doThrow(refusal(EmailChanges.NotSent.class, "correo", "No hemos podido enviar el correo ahora."))
                .when(emailChanges).request(3, "b@example.com", "clave");
        mvc.perform(post("/cuenta/correo").param("correo", "b@example.com").param("contrasena", "clave")
                .with(user(ANA)).with(csrf()))
            .andExpect(status().isServiceUnavailable());
    }

    @Test
    void theConfirmationLinkOpensWithoutASessionAndChangesNothingByGet() throws Exception {
        when(emailChanges.pending("tok")).thenReturn(Optional.of("nueva@example.com"));
        mvc.perform(get("/cuenta/correo/confirmar").param("token", "tok"))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/email-confirm"))
            .andExpect(header().string("Cache-Control", "no-store"))
            .andExpect(model().attribute("newEmail", "nueva@example.com"))
            .andExpect(model().attribute("token", "tok"));
        verify(emailChanges, never()).confirm(anyString());
        mvc.perform(get("/cuenta/correo/confirmar").param("token", "otro"))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("outcome", "LINK_UNUSABLE"));
    }

    @Test
    void theConfirmationIsAPost() throws Exception {
        when(emailChanges.confirm("tok")).thenReturn(EmailChanges.Outcome.CHANGED);
        when(emailChanges.confirm("usado")).thenReturn(EmailChanges.Outcome.ADDRESS_TAKEN);
        mvc.perform(post("/cuenta/correo/confirmar").param("token", "tok").with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("outcome", "CHANGED"));
        mvc.perform(post("/cuenta/correo/confirmar").param("token", "usado").with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("outcome", "ADDRESS_TAKEN"));
        mvc.perform(post("/cuenta/correo/confirmar").param("token", "tok"))
            .andExpect(status().isForbidden());
    }

    @Test
    void theSecurityPageTakesItsNoticesFromTheQueryOnly() throws Exception {
        when(factors.hasTotp(3)).thenReturn(true);
        when(factors.recoveryCodesLeft(3)).thenReturn(7);
        when(recentLogin.isRecent(any(), any())).thenReturn(true);
        mvc.perform(get("/cuenta/seguridad").param("llave", "nueva").param("cerradas", "2").with(user(ANA)))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/security"))
            .andExpect(header().string("Cache-Control", "no-store"))
            .andExpect(model().attribute("passkeyAdded", true))
            .andExpect(model().attribute("passkeyNeedsPassword", false))
            .andExpect(model().attribute("totp", true))
            .andExpect(model().attribute("recoveryCodesLeft", 7))
            .andExpect(model().attribute("mayDisable", false))
            .andExpect(model().attribute("ended", "2"));
        mvc.perform(get("/cuenta/seguridad").with(user(ANA)))
            .andExpect(model().attribute("passkeyAdded", false))
            .andExpect(model().attribute("wrongPassword", false))
            .andExpect(model().attribute("disabled", false))
            .andExpect(model().attributeDoesNotExist("ended"));
    }

    /** The notices come from the query only: headers of the same names are not read (the @InitBinder). */
    @Test
    void headersOfTheNoticesNamesAreNotRead() throws Exception {
        mvc.perform(get("/cuenta/seguridad").header("llave", "nueva").header("contrasena", "mal").header("cerradas", "2")
                .with(user(ANA)))
            .andExpect(model().attribute("passkeyAdded", false))
            .andExpect(model().attribute("wrongPassword", false))
            .andExpect(model().attributeDoesNotExist("ended"));
    }

    @Test
    void thePasswordTypedAgainMakesTheLoginRecent() throws Exception {
        when(accounts.passwordMatches(3, "buena")).thenReturn(true);
        mvc.perform(post("/cuenta/seguridad/confirmar").param("contrasena", "mala").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?llave=contrasena"));
        verify(recentLogin, never()).passwordConfirmed(any());
        mvc.perform(post("/cuenta/seguridad/confirmar").param("contrasena", "buena").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?llave=confirmada"));
        verify(recentLogin).passwordConfirmed(any());
    }

    @Test
    void aPasskeyRemovedEndsTheOtherSessions() throws Exception {
        when(passkeys.remove("persona3@example.com", "AbC")).thenReturn(true);
        mvc.perform(post("/cuenta/seguridad/llaves/borrar").param("llave", "AbC").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?llave=eliminada"));
        verify(sessions).endOthers(org.mockito.ArgumentMatchers.eq("persona3@example.com"), anyString());
        mvc.perform(post("/cuenta/seguridad/llaves/borrar").param("llave", "otra").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad"));
    }

    @Test
    void endingSessionsIsCountedAndAudited() throws Exception {
        when(sessions.end(org.mockito.ArgumentMatchers.eq("persona3@example.com"), org.mockito.ArgumentMatchers.eq("h1"), anyString())).thenReturn(true);
        when(sessions.endOthers(org.mockito.ArgumentMatchers.eq("persona3@example.com"), anyString())).thenReturn(2);
        mvc.perform(post("/cuenta/seguridad/sesiones/cerrar").param("sesion", "h1").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?cerradas=1"));
        mvc.perform(post("/cuenta/seguridad/sesiones/cerrar").param("sesion", "h2").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?cerradas=0"));
        mvc.perform(post("/cuenta/seguridad/sesiones/cerrar-otras").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?cerradas=2"));
        assertThat(events.stream(AuditEvent.class).map(AuditEvent::subject)).containsExactly(
                "usuario #3 persona3@example.com: 1 sesión (h1)",
                "usuario #3 persona3@example.com: todas las demás (2)");
    }

    @Test
    void everyFormNeedsItsCsrfTokenAndASession() throws Exception {
        mvc.perform(post("/cuenta/seguridad/sesiones/cerrar-otras").with(user(ANA)))
            .andExpect(status().isForbidden());
        mvc.perform(post("/cuenta/nombre").param("primer_nombre", "X").with(user(ANA)))
            .andExpect(status().isForbidden());
        mvc.perform(get("/cuenta/seguridad"))
            .andExpect(redirectedUrl("/login/?redirect=%2Fcuenta%2Fseguridad"));
        verify(sessions, never()).endOthers(anyString(), anyString());
        verify(accounts, never()).rename(org.mockito.ArgumentMatchers.anyLong(), anyString());
    }
}
