package com.example.identity.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
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
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.SecondFactorAdded;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.session.OpenSessions;
import com.example.identity.signin.SecondStep;
import com.example.identity.signin.SecondStepController;
import com.example.identity.site.WebChainSlice;

/** {@code /cuenta/seguridad/totp}: set up (password and code), new recovery codes, turn off. */
@WebMvcTest(TotpSettingsController.class)
@Import(WebChainSlice.class)
@RecordApplicationEvents
class TotpSettingsControllerTest {

    static final AccountPrincipal ANA = WebChainSlice.account(3, Role.USER);
    static final String SECRET = "JBSWY3DPEHPK3PXP";

    @Autowired
    MockMvc mvc;

    @Autowired
    ApplicationEvents events;

    @MockitoBean
    SecondFactors factors;
    @MockitoBean
    SecondStep step;
    @MockitoBean
    AccountService accounts;
    @MockitoBean
    OpenSessions sessions;

    MockHttpSession session = new MockHttpSession();

    @BeforeEach
    void aSecretIsBeingSetUp() {
        session.setAttribute(SecondStepController.SECRET, SECRET);
        when(factors.qrCode(SecondStepController.ISSUER_NAME, "persona3@example.com", SECRET)).thenReturn("data:image/png;base64,AA");
        when(accounts.passwordMatches(3, "buena")).thenReturn(true);
    }

    @Test
    void theFormKeepsOneSecretInTheSession() throws Exception {
        var fresh = new MockHttpSession();
        when(factors.newSecret()).thenReturn(SECRET);
        mvc.perform(get("/cuenta/seguridad/totp").session(fresh).with(user(ANA)))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/totp"))
            .andExpect(header().string("Cache-Control", "no-store"))
            .andExpect(model().attribute("secret", SECRET))
            .andExpect(model().attribute("qr", "data:image/png;base64,AA"))
            .andExpect(model().attribute("throttled", false))
            .andExpect(request().sessionAttribute(SecondStepController.SECRET, SECRET));
        mvc.perform(get("/cuenta/seguridad/totp").param("bloqueado", "").session(fresh).with(user(ANA)))
            .andExpect(model().attribute("throttled", true));
        verify(factors).newSecret(); // once: the second page showed the same secret
    }

    @Test
    void aWrongPasswordSetsNothingUp() throws Exception {
        mvc.perform(post("/cuenta/seguridad/totp").session(session).param("contrasena", "mala").param("codigo", "123456")
                .with(user(ANA)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("settings/totp"))
            .andExpect(model().attribute("passwordError", "La contraseña no es correcta"));
        verify(factors, never()).enable(anyLong(), anyString(), anyString());
    }

    @Test
    void aWrongCodeIsAskedAgain() throws Exception {
        when(factors.enable(3, SECRET, "000000")).thenReturn(List.of());
        mvc.perform(post("/cuenta/seguridad/totp").session(session).param("contrasena", "buena").param("codigo", "000000")
                .with(user(ANA)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("error", "Código incorrecto. Escribe el código de 6 cifras que muestra ahora tu "
                    + "aplicación de autenticación."))
            .andExpect(request().sessionAttribute(SecondStepController.SECRET, SECRET));
        assertThat(events.stream(SecondFactorAdded.class)).isEmpty();
    }

    @Test
    void aRightCodeShowsTheRecoveryCodesOnceAndTellsTheAddress() throws Exception {
        when(factors.enable(3, SECRET, "123456")).thenReturn(List.of("aaaa-bbbb", "cccc-dddd"));
        mvc.perform(post("/cuenta/seguridad/totp").session(session).param("contrasena", "buena").param("codigo", "123456")
                .with(user(ANA)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/recovery-codes"))
            .andExpect(model().attribute("codes", List.of("aaaa-bbbb", "cccc-dddd")))
            .andExpect(model().attribute("next", "/cuenta/seguridad"))
            .andExpect(request().sessionAttributeDoesNotExist(SecondStepController.SECRET));
        verify(step).addFactor(any(), any(), any());
        assertThat(events.stream(SecondFactorAdded.class)).singleElement()
                .extracting(SecondFactorAdded::factor).isEqualTo(SecondFactorAdded.Factor.TOTP);
    }

    @Test
    void newRecoveryCodesNeedTotpAndThePassword() throws Exception {
        when(factors.hasTotp(3)).thenReturn(true);
        when(factors.regenerateRecoveryCodes(3)).thenReturn(List.of("eeee-ffff"));
        mvc.perform(post("/cuenta/seguridad/totp/codigos").param("contrasena", "mala").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?contrasena=mal"));
        mvc.perform(post("/cuenta/seguridad/totp/codigos").param("contrasena", "buena").with(user(ANA)).with(csrf()))
            .andExpect(view().name("settings/recovery-codes"))
            .andExpect(model().attribute("codes", List.of("eeee-ffff")));
        verify(factors).regenerateRecoveryCodes(3);
    }

    @Test
    void withoutTotpThereAreNoCodesAndNoWrongPassword() throws Exception {
        mvc.perform(post("/cuenta/seguridad/totp/codigos").param("contrasena", "buena").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad"));
        verify(factors, never()).regenerateRecoveryCodes(anyLong());
    }

    @Test
    void turningItOffNeedsThePasswordAndARoleThatMay() throws Exception {
        mvc.perform(post("/cuenta/seguridad/totp/desactivar").param("contrasena", "buena").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad"));
        when(step.mayDisable(ANA)).thenReturn(true);
        mvc.perform(post("/cuenta/seguridad/totp/desactivar").param("contrasena", "mala").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?contrasena=mal"));
        verify(factors, never()).disable(anyLong());
        mvc.perform(post("/cuenta/seguridad/totp/desactivar").param("contrasena", "buena").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/seguridad?desactivada"));
        verify(factors).disable(3);
        verify(sessions).endOthers(org.mockito.ArgumentMatchers.eq("persona3@example.com"), anyString());
    }

    @Test
    void theFormsNeedTheirCsrfToken() throws Exception {
        mvc.perform(post("/cuenta/seguridad/totp/desactivar").param("contrasena", "buena").with(user(ANA)))
            .andExpect(status().isForbidden());
        verify(factors, never()).disable(anyLong());
    }
}
