package com.example.identity.recovery;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.abuse.RateLimits;
import com.example.identity.account.AccountService;
import com.example.identity.site.WebChainSlice;

/** {@code /login/recuperar} and {@code /login/restablecer}, open to visitors, with the recovery itself mocked. */
@WebMvcTest(PasswordRecoveryController.class)
@Import(WebChainSlice.class)
class PasswordRecoveryControllerTest {

    static final String TOKEN = "a".repeat(43);

    @Autowired
    MockMvc mvc;

    @MockitoBean
    PasswordRecovery recovery;

    @MockitoBean
    RateLimits limits;

    @Test
    void theRequestFormIsOpenAndNotStored() throws Exception {
        mvc.perform(get("/login/recuperar"))
            .andExpect(status().isOk())
            .andExpect(view().name("recovery/recover"))
            .andExpect(header().string("Cache-Control", "no-store"));
    }

    @Test
    void anAddressGetsTheSameAnswerWhateverItIs() throws Exception {
        mvc.perform(post("/login/recuperar").param("correo", "  ana@example.com ").with(csrf()))
            .andExpect(status().isOk())
            .andExpect(view().name("recovery/recover"))
            .andExpect(model().attribute("sent", PasswordRecoveryController.SENT))
            .andExpect(content().string(containsString("El enlace sirve durante 30 minutos y una sola vez.")));
        verify(limits).recordFailure(RateLimits.Budget.RECOVERY_REQUESTS, "127.0.0.1");
        verify(recovery).request("ana@example.com");
    }

    @Test
    void aMalformedAddressIsAskedAgain() throws Exception {
        mvc.perform(post("/login/recuperar").param("correo", "no-es-un-correo").with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("error", "Escribe una dirección de correo válida."))
            .andExpect(model().attribute("correo", "no-es-un-correo"))
            .andExpect(model().attributeDoesNotExist("sent"));
        verify(recovery, never()).request(anyString());
    }

    @Test
    void aTooLongAddressIsNotEchoed() throws Exception {
        mvc.perform(post("/login/recuperar").param("correo", "x".repeat(300)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("correo", ""));
    }

    @Test
    void aSpentBudgetIsRefusedWithTheWaitInMinutes() throws Exception {
        when(limits.blockedFor(RateLimits.Budget.RECOVERY_REQUESTS, "127.0.0.1")).thenReturn(61L);
        mvc.perform(post("/login/recuperar").param("correo", "ana@example.com").with(csrf()))
            .andExpect(status().isTooManyRequests())
            .andExpect(header().string("Retry-After", "61"))
            .andExpect(model().attribute("error",
                    "Demasiadas solicitudes desde tu conexión. Vuelve a intentarlo dentro de 2 minutos."));
        verify(recovery, never()).request(anyString());
        verify(limits, never()).recordFailure(any(), anyString());
    }

    @Test
    void postsNeedTheCsrfToken() throws Exception {
        mvc.perform(post("/login/recuperar").param("correo", "ana@example.com"))
            .andExpect(status().isForbidden());
        mvc.perform(post("/login/restablecer").param("token", TOKEN).param("nueva", "x").param("repetida", "x"))
            .andExpect(status().isForbidden());
        verify(recovery, never()).request(anyString());
        verify(recovery, never()).reset(anyString(), anyString());
    }

    @Test
    void aWorkingLinkShowsTheForm() throws Exception {
        when(recovery.isUsable(TOKEN)).thenReturn(true);
        mvc.perform(get("/login/restablecer").param("token", TOKEN))
            .andExpect(status().isOk())
            .andExpect(view().name("recovery/reset"))
            .andExpect(header().string("Cache-Control", "no-store"))
            .andExpect(model().attribute("token", TOKEN))
            .andExpect(model().attributeDoesNotExist("expired"));
    }

    @Test
    void aLinkThatDoesNotWorkSaysSo() throws Exception {
        mvc.perform(get("/login/restablecer").param("token", TOKEN))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("recovery/reset"))
            .andExpect(model().attribute("expired", true))
            .andExpect(model().attributeDoesNotExist("token"));
    }

    @Test
    void theNewPasswordIsSet() throws Exception {
        when(recovery.isUsable(TOKEN)).thenReturn(true);
        when(recovery.reset(TOKEN, "nueva-contrasena-larga")).thenReturn(true);
        mvc.perform(post("/login/restablecer").with(csrf()).param("token", TOKEN)
                .param("nueva", "nueva-contrasena-larga").param("repetida", "nueva-contrasena-larga"))
            .andExpect(status().isOk())
            .andExpect(model().attribute("done", true));
    }

    @Test
    void differentPasswordsAreAskedAgain() throws Exception {
        when(recovery.isUsable(TOKEN)).thenReturn(true);
        mvc.perform(post("/login/restablecer").with(csrf()).param("token", TOKEN)
                .param("nueva", "una-contrasena").param("repetida", "otra-contrasena"))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("errors", Map.of("repetida", "Las contraseñas nuevas no coinciden")))
            .andExpect(content().string(containsString("Las contraseñas nuevas no coinciden")));
        verify(recovery, never()).reset(anyString(), anyString());
    }

    @Test
    void aPasswordAgainstTheRulesIsAskedAgainAndTheLinkStays() throws Exception {
        when(recovery.isUsable(TOKEN)).thenReturn(true);
        var tooShort = mock(AccountService.InvalidAccountException.class);
        when(tooShort.getMessage()).thenReturn("La nueva contraseña debe tener al menos 10 caracteres");
        when(recovery.reset(TOKEN, "corta")).thenThrow(tooShort);
        mvc.perform(post("/login/restablecer").with(csrf()).param("token", TOKEN)
                .param("nueva", "corta").param("repetida", "corta"))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("token", TOKEN))
            .andExpect(model().attribute("errors", Map.of("nueva", "La nueva contraseña debe tener al menos 10 caracteres")));
    }

    @Test
    void aLinkUsedMeanwhileIsExpired() throws Exception {
        when(recovery.isUsable(TOKEN)).thenReturn(true);
        when(recovery.reset(TOKEN, "nueva-contrasena-larga")).thenThrow(new PasswordRecovery.LinkUsedMeanwhile());
        mvc.perform(post("/login/restablecer").with(csrf()).param("token", TOKEN)
                .param("nueva", "nueva-contrasena-larga").param("repetida", "nueva-contrasena-larga"))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("expired", true))
            .andExpect(model().attributeDoesNotExist("done"));
    }
}
