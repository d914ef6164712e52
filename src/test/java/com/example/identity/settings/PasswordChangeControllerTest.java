package com.example.identity.settings;

import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
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

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.PasswordHashingBusy;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.site.WebChainSlice;

/** {@code /cuenta/contrasena}: the form, each refusal, the change and where it leads. */
@WebMvcTest(PasswordChangeController.class)
@Import(WebChainSlice.class)
class PasswordChangeControllerTest {

    static final AccountPrincipal ANA = WebChainSlice.account(3, Role.USER);

    @Autowired
    MockMvc mvc;

    @MockitoBean
    AccountService accounts;

    @MockitoBean
    RegisteredClientRepository clients;

    static UserAccount stored() {
        var account = new UserAccount("Lucía", "persona3@example.com", "new-hash", Role.USER, Instant.EPOCH);
        ReflectionTestUtils.setField(account, "id", 3L);
        return account;
    }

    @Test
    void theFormForALoggedInUser() throws Exception {
        mvc.perform(get("/cuenta/contrasena").with(user(ANA)))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/password"))
            .andExpect(model().attribute("required", false))
            .andExpect(model().attribute("redirect", (Object) null))
            .andExpect(model().attribute("done", false))
            .andExpect(model().attributeDoesNotExist("errors"));
    }

    @Test
    void aOneTimePasswordSaysItIsRequiredAndKeepsOnlyALocalWayBack() throws Exception {
        var mustChange = new AccountPrincipal(4, "Ana", "ana@example.com", Role.USER, true, true, null);
        mvc.perform(get("/cuenta/contrasena").param("redirect", "/dashboard/developer.php").with(user(mustChange)))
            .andExpect(status().isOk())
            .andExpect(model().attribute("required", true))
            .andExpect(model().attribute("redirect", "/dashboard/developer.php"));
        mvc.perform(get("/cuenta/contrasena").param("redirect", "https://evil.example/").with(user(mustChange)))
            .andExpect(model().attribute("redirect", (Object) null));
    }

    @Test
    void afterAChangeAndAfterTheThrottle() throws Exception {
        mvc.perform(get("/cuenta/contrasena").param("hecho", "").with(user(ANA)))
            .andExpect(model().attribute("done", true));
        mvc.perform(get("/cuenta/contrasena").param("bloqueado", "").with(user(ANA)))
            .andExpect(model().attribute("errors", Map.of("actual", PasswordChangeController.THROTTLED)));
    }

    @Test
    void aVisitorIsSentToTheLogin() throws Exception {
        mvc.perform(get("/cuenta/contrasena"))
            .andExpect(status().isFound())
            .andExpect(redirectedUrl("/login/?redirect=%2Fcuenta%2Fcontrasena"));
    }

    @Test
    void thePasswordIsChangedAndTheSessionGoesOn() throws Exception {
        when(accounts.changePassword(eq(3L), eq("actual-larga"), eq("nueva-larga-1"), anyString())).thenReturn(stored());
        mvc.perform(post("/cuenta/contrasena").with(user(ANA)).with(csrf())
                .param("actual", "actual-larga").param("nueva", "nueva-larga-1").param("repetida", "nueva-larga-1"))
            .andExpect(status().isFound())
            .andExpect(redirectedUrl("/cuenta/contrasena?hecho"));
    }

    @Test
    void aChangeOnTheWayToAPageGoesOnThere() throws Exception {
        when(accounts.changePassword(eq(3L), eq("actual-larga"), eq("nueva-larga-1"), anyString())).thenReturn(stored());
        mvc.perform(post("/cuenta/contrasena").with(user(ANA)).with(csrf()).param("redirect", "/cuenta/seguridad")
                .param("actual", "actual-larga").param("nueva", "nueva-larga-1").param("repetida", "nueva-larga-1"))
            .andExpect(redirectedUrl("/cuenta/seguridad"));
    }

    @Test
    void differentNewPasswordsAreAskedAgain() throws Exception {
        // 400, as the other forms of the account answer a refusal
        mvc.perform(post("/cuenta/contrasena").with(user(ANA)).with(csrf())
                .param("actual", "actual-larga").param("nueva", "nueva-larga-1").param("repetida", "nueva-larga-2"))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("settings/password"))
            .andExpect(model().attribute("errors", Map.of("repetida", "Las contraseñas nuevas no coinciden")));
        verify(accounts, never()).changePassword(anyLong(), anyString(), anyString(), anyString());
    }

    @Test
    void aWrongCurrentPasswordIsNamedOnItsField() throws Exception {
        var wrong = mock(AccountService.InvalidAccountException.class);
        when(wrong.field()).thenReturn("actual");
        when(wrong.getMessage()).thenReturn("La contraseña actual no es correcta");
        when(accounts.changePassword(eq(3L), eq("mala"), eq("nueva-larga-1"), anyString())).thenThrow(wrong);
        mvc.perform(post("/cuenta/contrasena").with(user(ANA)).with(csrf())
                .param("actual", "mala").param("nueva", "nueva-larga-1").param("repetida", "nueva-larga-1"))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("settings/password"))
            .andExpect(model().attribute("errors", Map.of("actual", "La contraseña actual no es correcta")));
    }

    @Test
    void aFullHashingQueueIsA503WithRetryAfter() throws Exception {
        when(accounts.changePassword(eq(3L), eq("actual-larga"), eq("nueva-larga-1"), anyString()))
                .thenThrow(mock(PasswordHashingBusy.class));
        mvc.perform(post("/cuenta/contrasena").with(user(ANA)).with(csrf())
                .param("actual", "actual-larga").param("nueva", "nueva-larga-1").param("repetida", "nueva-larga-1"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().string("Retry-After", String.valueOf(PasswordHashingBusy.RETRY_AFTER_SECONDS)));
    }

    @Test
    void theFormNeedsItsCsrfToken() throws Exception {
        mvc.perform(post("/cuenta/contrasena").with(user(ANA))
                .param("actual", "actual-larga").param("nueva", "nueva-larga-1").param("repetida", "nueva-larga-1"))
            .andExpect(status().isForbidden());
        verify(accounts, never()).changePassword(anyLong(), anyString(), anyString(), anyString());
    }
}
