package com.example.identity.dashboard;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.SliceImpl;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.ClientService;
import com.example.identity.keys.SigningKeys;
import com.example.identity.site.WebChainSlice;
import com.example.identity.apitoken.ApiTokenService;

/** {@code /dashboard/admin.php} and the admin's actions: admins only, paging, one-time passwords shown once. */
@WebMvcTest(AdminController.class)
@Import(WebChainSlice.class)
class AdminControllerTest {

    static final AccountPrincipal ADMIN = WebChainSlice.account(1, Role.ADMIN);
    static final Caller AS_ADMIN = Caller.of(ADMIN);

    @Autowired
    MockMvc mvc;

    @MockitoBean
    AccountAdministration accounts;
    @MockitoBean
    ApiTokenService tokens;
    @MockitoBean
    ClientService clients;
    @MockitoBean
    Clock clock;
    @MockitoBean
    SigningKeys signingKeys;
    @MockitoBean
    ClientLogoutUris logoutUris;
    @MockitoBean
    com.example.identity.minors.BirthDates birthDates;

    @BeforeEach
    void emptyLists() {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        when(accounts.page(any())).thenReturn(new SliceImpl<>(List.of()));
        when(tokens.page(any(), any())).thenReturn(new SliceImpl<>(List.of()));
        when(clients.page(any(), any())).thenReturn(new SliceImpl<>(List.of()));
        when(signingKeys.rotationDelay()).thenReturn(Duration.ofHours(24));
    }

    @Test
    void thePageForAnAdmin() throws Exception {
        mvc.perform(get("/dashboard/admin.php").with(user(ADMIN)))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/admin"))
            .andExpect(model().attribute("me", ADMIN))
            .andExpect(model().attribute("roles", List.of("user", "developer_api", "admin")))
            .andExpect(model().attribute("page", 1))
            .andExpect(model().attribute("size", 50))
            .andExpect(model().attribute("prevUrl", (Object) null))
            .andExpect(model().attribute("nextUrl", (Object) null))
            .andExpect(model().attribute("rotationDelay", "24h"))
            .andExpect(model().attributeDoesNotExist("listError"));
    }

    @Test
    void developersUsersAndVisitorsAreKeptOut() throws Exception {
        mvc.perform(get("/dashboard/admin.php").with(user(WebChainSlice.account(7, Role.DEVELOPER_API))))
            .andExpect(status().isForbidden());
        mvc.perform(get("/dashboard/admin/audit.php").with(user(WebChainSlice.account(7, Role.DEVELOPER_API))))
            .andExpect(status().isForbidden());
        mvc.perform(post("/dashboard/admin/users/disable").param("id", "2").with(user(WebChainSlice.account(8, Role.USER))).with(csrf()))
            .andExpect(status().isForbidden());
        mvc.perform(get("/dashboard/admin.php"))
            .andExpect(redirectedUrl("/login/?redirect=%2Fdashboard%2Fadmin.php"));
        verify(accounts, never()).disable(any(), anyLong());
        verify(accounts, never()).page(any());
    }

    @Test
    void pagesLinkToTheirNeighboursWithTheSearch() throws Exception {
        when(accounts.page(any())).thenReturn(new SliceImpl<>(List.of(), PageRequest.of(1, 10), true));
        mvc.perform(get("/dashboard/admin.php").param("page", "2").param("size", "10").param("q", "ana maría").with(user(ADMIN)))
            .andExpect(model().attribute("q", "ana maría"))
            .andExpect(model().attribute("prevUrl", "/dashboard/admin.php?page=1&size=10&q=ana%20mar%C3%ADa"))
            .andExpect(model().attribute("nextUrl", "/dashboard/admin.php?page=3&size=10&q=ana%20mar%C3%ADa"));
    }

    @Test
    void aBadListQueryShowsTheFirstPageAndSaysWhy() throws Exception {
        mvc.perform(get("/dashboard/admin.php").param("page", "0").with(user(ADMIN)))
            .andExpect(status().isOk())
            .andExpect(model().attribute("listError", "page inválido (un número de 1 a 10000)"))
            .andExpect(model().attribute("page", 1))
            .andExpect(content().string(containsString("page inválido (un número de 1 a 10000)")));
    }

    @Test
    void aNewAccountsOneTimePasswordIsShownInThePageOnly() throws Exception {
        UserAccount created = mock(UserAccount.class);
        when(created.getCorreo()).thenReturn("nueva@example.com");
        when(created.getOneTimePasswordExpiresAt()).thenReturn(Instant.parse("2025-05-06T10:00:00Z"));
        when(accounts.createWithTemporaryPassword("Nueva", "nueva@example.com", Role.DEVELOPER_API))
                .thenReturn(new AccountService.NewAccount(created, "temporal-123"));
        mvc.perform(post("/dashboard/admin/users/create").param("primer_nombre", "Nueva").param("correo", "nueva@example.com")
                .param("rol", "developer_api").with(user(ADMIN)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/admin"))
            .andExpect(model().attribute("newUser", "nueva@example.com"))
            .andExpect(model().attribute("temporaryPassword", "temporal-123"))
            .andExpect(model().attribute("temporaryPasswordExpiry", "2025-05-06 10:00 UTC"))
            .andExpect(flash().attributeCount(0));
    }

    @Test
    void aRefusedAccountIsNoticed() throws Exception {
        doThrow(mock(AccountService.EmailAlreadyUsedException.class)).when(accounts)
                .createWithTemporaryPassword("Otra", "usado@example.com", Role.USER);
        mvc.perform(post("/dashboard/admin/users/create").param("primer_nombre", "Otra").param("correo", "usado@example.com")
                .param("rol", "user").with(user(ADMIN)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/admin.php#users"))
            .andExpect(flash().attribute("userError", "Ya existe una cuenta con ese correo."));
    }

    @Test
    void roleDisableEnableAndResetSayWhatHappened() throws Exception {
        when(accounts.changeRole(AS_ADMIN, 2, Role.ADMIN)).thenReturn(true);
        mvc.perform(post("/dashboard/admin/users/role").param("id", "2").param("rol", "admin").with(user(ADMIN)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/admin.php#users"))
            .andExpect(flash().attribute("notice", "Rol cambiado; sus sesiones se han cerrado."));
        mvc.perform(post("/dashboard/admin/users/role").param("id", "2").param("rol", "root").with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "No se pudo cambiar ese rol (no puedes cambiar el tuyo, y debe quedar al menos un admin activo)."));
        mvc.perform(post("/dashboard/admin/users/disable").param("id", "1").with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "No se pudo desactivar esa cuenta (no puedes desactivar la tuya, y debe quedar al menos un admin activo)."));
        when(accounts.enable(2)).thenReturn(true);
        mvc.perform(post("/dashboard/admin/users/enable").param("id", "2").with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "Cuenta activada."));
        when(accounts.resetPassword(AS_ADMIN, 1)).thenReturn(Optional.empty());
        mvc.perform(post("/dashboard/admin/users/reset-password").param("id", "1").with(user(ADMIN)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/admin.php#users"))
            .andExpect(flash().attribute("notice", "No se pudo restablecer esa contraseña (no puedes restablecer la tuya)."));
    }

    @Test
    void firstPartyTakesOnlyTrueOrFalse() throws Exception {
        when(clients.setFirstParty(AS_ADMIN, "tienda", true)).thenReturn(true);
        mvc.perform(post("/dashboard/admin/clients/first-party").param("client_id", "tienda").param("first_party", "true")
                .with(user(ADMIN)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/admin.php#clients"))
            .andExpect(flash().attribute("notice", "La aplicación es de primera parte: no pedirá consentimiento."));
        mvc.perform(post("/dashboard/admin/clients/first-party").param("client_id", "tienda").param("first_party", "si")
                .with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "No existe esa aplicación."));
        verify(clients, never()).setFirstParty(AS_ADMIN, "tienda", false);
    }

    @Test
    void keyRotationSaysWhenTheNewKeySigns() throws Exception {
        var pending = mock(SigningKeys.RotationPendingException.class);
        when(signingKeys.rotate()).thenThrow(pending);
        mvc.perform(post("/dashboard/admin/keys/rotate").with(user(ADMIN)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/admin.php#keys"))
            .andExpect(flash().attribute("notice", "Ya hay una rotación en curso: la clave nueva aún no firma."));
        org.mockito.Mockito.reset(signingKeys);
        when(signingKeys.rotate()).thenThrow(new IllegalStateException("from a file"));
        mvc.perform(post("/dashboard/admin/keys/rotate").with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "La clave de firma viene de identity.signing-key.location: no se rota aquí."));
        mvc.perform(post("/dashboard/admin/keys/rotate").with(user(ADMIN)))
            .andExpect(status().isForbidden());
    }

    static SigningKeys.KeyState key(String kid, Instant created, Instant activates, Instant retired) {
        var jwk = mock(com.nimbusds.jose.jwk.RSAKey.class);
        when(jwk.getKeyID()).thenReturn(kid);
        return new SigningKeys.KeyState(jwk, created, activates, retired);
    }

    @Test
    void aRotationPublishesANewKeyThatSignsLater() throws Exception {
        Instant now = Instant.parse("2025-05-05T10:00:00Z");
        var added = key("k2", now, now.plus(Duration.ofHours(24)), null);
        when(signingKeys.rotate()).thenReturn(added);
        mvc.perform(post("/dashboard/admin/keys/rotate").with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "Nueva clave de firma k2 publicada; firmará desde 2025-05-06 10:00:00 UTC."));
    }

    @Test
    void eachKeysStateAtTheClocksInstant() throws Exception {
        Instant now = Instant.parse("2025-05-05T10:00:00Z");
        var keys = List.of(key("old", now.minusSeconds(20), now.minusSeconds(20), now),
                key("cur", now.minusSeconds(10), now, now.plusSeconds(1)),
                key("new", now, now.plusSeconds(1), null));
        when(signingKeys.states()).thenReturn(keys);
        mvc.perform(get("/dashboard/admin.php").with(user(ADMIN)))
            .andExpect(model().attribute("signingKeys", List.of(
                    new AdminController.KeyRow("old", "retirada, solo verifica", "2025-05-05 09:59:40 UTC",
                            "2025-05-05 09:59:40 UTC", "2025-05-05 10:00:00 UTC"),
                    new AdminController.KeyRow("cur", "firma", "2025-05-05 09:59:50 UTC", "2025-05-05 10:00:00 UTC",
                            "2025-05-05 10:00:01 UTC"),
                    new AdminController.KeyRow("new", "publicada, firmará pronto", "2025-05-05 10:00:00 UTC",
                            "2025-05-05 10:00:01 UTC", ""))));
    }
}
