package com.example.identity.dashboard;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;
import com.example.identity.site.WebChainSlice;
import com.example.identity.apitoken.ApiToken;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/** {@code /dashboard/developer.php} and its actions: who may see it, each refusal's notice, secrets shown once. */
@WebMvcTest(DeveloperDashboardController.class)
@Import(WebChainSlice.class)
class DeveloperDashboardControllerTest {

    static final AccountPrincipal DEV = WebChainSlice.account(7, Role.DEVELOPER_API);

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ApiTokenService tokens;
    @MockitoBean
    ClientService clients;
    @MockitoBean
    IdentityProperties properties;
    @MockitoBean
    Clock clock;
    @MockitoBean
    ClientLogoutUris logoutUris;
    @MockitoBean
    com.example.identity.webhooks.Webhooks webhooks; // an empty overview: no webhook

    @Test
    void aDeveloperSeesTheirDashboard() throws Exception {
        when(properties.issuerUrl()).thenReturn("https://id.example.com");
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        mvc.perform(get("/dashboard/developer.php").with(user(DEV)))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/developer"))
            .andExpect(model().attribute("user", DEV))
            .andExpect(model().attribute("tokens", List.of()))
            .andExpect(model().attribute("clients", List.of()))
            .andExpect(model().attribute("issuer", "https://id.example.com"))
            .andExpect(model().attribute("example", (Object) null));
        verify(tokens).listForOwner(7);
        verify(clients).listForOwner(7);
    }

    @Test
    void aUserIsRefusedAndAVisitorSentToTheLogin() throws Exception {
        mvc.perform(get("/dashboard/developer.php").with(user(WebChainSlice.account(8, Role.USER))))
            .andExpect(status().isForbidden());
        mvc.perform(get("/dashboard/developer.php"))
            .andExpect(redirectedUrl("/login/?redirect=%2Fdashboard%2Fdeveloper.php"));
        mvc.perform(post("/dashboard/tokens/create").param("name", "juego").with(user(WebChainSlice.account(8, Role.USER))).with(csrf()))
            .andExpect(status().isForbidden());
        verify(tokens, never()).listForOwner(anyLong());
        verify(tokens, never()).createPersonal(anyLong(), anyString(), any());
    }

    @Test
    void aNewTokenIsShownInThePageItself() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        ApiToken token = mock(ApiToken.class);
        when(token.getName()).thenReturn("juego");
        when(tokens.createPersonal(7, "juego", TokenScope.DEFAULT)).thenReturn(new ApiTokenService.IssuedToken("f".repeat(64), token));
        mvc.perform(post("/dashboard/tokens/create").param("name", "juego").with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/developer"))
            .andExpect(model().attribute("newToken", "f".repeat(64)))
            .andExpect(model().attribute("newTokenName", "juego"))
            .andExpect(content().string(containsString("f".repeat(64))))
            .andExpect(flash().attributeCount(0));
    }

    @Test
    void eachBadTokenRequestGetsItsNotice() throws Exception {
        String[][] cases = {
            { null, null, "Escribe un nombre para el token." },
            { "x".repeat(101), null, "El nombre no puede pasar de 100 caracteres." },
            { "a\u0007b", null, "El nombre no puede llevar caracteres de control." },
            { "juego", "todo", "Elige un ámbito: perfil o gestión." },
        };
        for (String[] c : cases) {
            var request = post("/dashboard/tokens/create").with(user(DEV)).with(csrf());
            if (c[0] != null) {
                request.param("name", c[0]);
            }
            if (c[1] != null) {
                request.param("scope", c[1]);
            }
            mvc.perform(request)
                .andExpect(redirectedUrl("/dashboard/developer.php#tokens"))
                .andExpect(flash().attribute("tokenError", c[2]));
        }
        verify(tokens, never()).createPersonal(anyLong(), anyString(), any());
    }

    @Test
    void revokingReturnsToTheAdminPageOnlyWhenAsked() throws Exception {
        when(tokens.revokeAs(Caller.of(DEV), 5)).thenReturn(true);
        mvc.perform(post("/dashboard/tokens/revoke").param("id", "5").with(user(DEV)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/developer.php#tokens"))
            .andExpect(flash().attribute("notice", "Token revocado."));
        mvc.perform(post("/dashboard/tokens/revoke").param("id", "6").param("back", "/dashboard/admin.php").with(user(DEV)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/admin.php#tokens"))
            .andExpect(flash().attribute("notice", "No se encontró ese token."));
        mvc.perform(post("/dashboard/clients/revoke").param("client_id", "c").param("back", "https://evil.example/").with(user(DEV)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/developer.php#clients"))
            .andExpect(flash().attribute("notice", "No se encontró esa aplicación."));
    }

    @Test
    void anApplicationIsRegisteredWithItsLogoutAddressesOneALine() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        var created = new ClientService.NewCredentials("tienda-1", "s3cr3t", "Tienda", "https://tienda.example.com/cb");
        when(clients.register(7, "Tienda", "https://tienda.example.com/cb",
                List.of("https://tienda.example.com/a", "https://tienda.example.com/b"), ClientType.WEB, null,
                SenderConstraints.NONE, false)).thenReturn(created);
        mvc.perform(post("/dashboard/clients/create").param("name", "Tienda").param("redirect_uri", "https://tienda.example.com/cb")
                .param("post_logout_redirect_uris", " https://tienda.example.com/a\r\n\r\nhttps://tienda.example.com/b \n")
                .with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("newClient", created))
            .andExpect(model().attribute("newClientType", "web"))
            .andExpect(content().string(containsString("s3cr3t")));
    }

    @Test
    void aRefusedRegistrationShowsTheSamePageAgainWithTheFieldsMessageAndTheForm() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        mvc.perform(post("/dashboard/clients/create").param("name", "Tienda").param("redirect_uri", "https://tienda.example.com/cb")
                .param("type", "consola").with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/developer"))
            .andExpect(model().attribute("clientErrors", Map.of("type", "Tipo inválido: web, nativa, dispositivo o servidor")))
            .andExpect(model().attribute("clientForm", Map.of("name", "Tienda", "redirect_uri", "https://tienda.example.com/cb",
                    "post_logout_redirect_uris", "", "type", "consola", "backchannel_logout_uri", "", "webhook_url", "",
                    "par_obligatorio", false, "dpop_obligatorio", false, "invitados", false)))
            .andExpect(content().string(containsString("Tipo inválido: web, nativa, dispositivo o servidor")))
            // a reload of the answer is a GET of the page, never the POST again
            .andExpect(content().string(containsString("data-shown-once=\"/dashboard/developer.php#clients\"")));
        verify(clients, never()).register(anyLong(), any(), any(), any(), any(), any(), any(SenderConstraints.class),
                anyBoolean());
    }

    /** Decisions §28: the two boxes of the form say what the application requires; a refusal keeps them ticked. */
    @Test
    void theBoxesRequirePushedRequestsAndDPoP() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        var created = new ClientService.NewCredentials("lanzador-1", null, "Lanzador", "http://127.0.0.1/cb");
        when(clients.register(7, "Lanzador", "http://127.0.0.1/cb", List.of(), ClientType.NATIVE, null,
                new SenderConstraints(true, true), false)).thenReturn(created);
        mvc.perform(post("/dashboard/clients/create").param("name", "Lanzador").param("redirect_uri", "http://127.0.0.1/cb")
                .param("type", "nativa").param("par_obligatorio", "true").param("dpop_obligatorio", "true")
                .with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("newClient", created));

        when(clients.register(7, "Consola", "", List.of(), ClientType.DEVICE, null, new SenderConstraints(true, false),
                false)).thenThrow(new ClientService.InvalidRegistrationException("par_obligatorio", "Solo las aplicaciones de "
                        + "tipo web o nativa envían solicitudes de autorización: par_obligatorio no se aplica"));
        mvc.perform(post("/dashboard/clients/create").param("name", "Consola").param("redirect_uri", "")
                .param("type", "dispositivo").param("par_obligatorio", "true").with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("clientErrors", Map.of("par_obligatorio", "Solo las aplicaciones de tipo web o "
                    + "nativa envían solicitudes de autorización: par_obligatorio no se aplica")))
            .andExpect(model().attribute("clientForm", Map.of("name", "Consola", "redirect_uri", "",
                    "post_logout_redirect_uris", "", "type", "dispositivo", "backchannel_logout_uri", "", "webhook_url", "",
                    "par_obligatorio", true, "dpop_obligatorio", false, "invitados", false)));
    }

    @Test
    void theFormHasBothBoxesInBothLanguages() throws Exception {
        mvc.perform(get("/dashboard/developer.php").with(user(DEV)))
            .andExpect(content().string(containsString("name=\"par_obligatorio\" value=\"true\"")))
            .andExpect(content().string(containsString("name=\"dpop_obligatorio\" value=\"true\"")))
            .andExpect(content().string(containsString("Exigir DPoP")));
        mvc.perform(get("/dashboard/developer.php").param("ui_locales", "en").header("Accept-Language", "en")
                .with(user(DEV)))
            .andExpect(content().string(containsString("Require DPoP")));
    }

    @Test
    void aServiceRefusalIsShownUnderItsFieldWithTheValuesTyped() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        when(clients.register(7, "Tienda", "https://tienda.example.com/cb", List.of(), ClientType.WEB, null,
                SenderConstraints.NONE, true))
                .thenThrow(new ClientService.InvalidRegistrationException("invitados", ClientService.GUESTS_ONLY_PUBLIC));
        mvc.perform(post("/dashboard/clients/create").param("name", "Tienda").param("redirect_uri", "https://tienda.example.com/cb")
                .param("invitados", "true").with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("clientErrors", Map.of("invitados",
                    "Solo las aplicaciones de tipo nativa o dispositivo admiten invitados")))
            .andExpect(content().string(containsString("id=\"client-guests-error\"")))
            .andExpect(content().string(containsString("Solo las aplicaciones de tipo nativa o dispositivo admiten invitados")));
    }

    @Test
    void theGuestsBoxRegistersANativeApplicationThatAcceptsGuests() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        var created = new ClientService.NewCredentials("juego-1", null, "Juego", "http://127.0.0.1/cb");
        when(clients.register(7, "Juego", "http://127.0.0.1/cb", List.of(), ClientType.NATIVE, null, SenderConstraints.NONE,
                true)).thenReturn(created);
        mvc.perform(post("/dashboard/clients/create").param("name", "Juego").param("redirect_uri", "http://127.0.0.1/cb")
                .param("type", "nativa").param("invitados", "true").with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("newClient", created))
            .andExpect(model().attribute("newClientType", "nativa"));
    }

    @Test
    void aRotatedSecretIsShownOnceOrNoticedAsImpossible() throws Exception {
        when(clock.instant()).thenReturn(Instant.parse("2025-05-05T10:00:00Z"));
        var rotated = new ClientService.NewCredentials("tienda-1", "n3w", "Tienda", "https://tienda.example.com/cb");
        when(clients.rotateSecretAs(Caller.of(DEV), "tienda-1")).thenReturn(Optional.of(rotated));
        mvc.perform(post("/dashboard/clients/rotate").param("client_id", "tienda-1").with(user(DEV)).with(csrf()))
            .andExpect(status().isOk())
            .andExpect(model().attribute("newClient", rotated));
        mvc.perform(post("/dashboard/clients/rotate").param("client_id", "otra").with(user(DEV)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/developer.php#clients"))
            .andExpect(flash().attribute("notice", "No se pudo rotar el secreto de esa aplicación."));
    }

    @Test
    void everyActionNeedsTheCsrfToken() throws Exception {
        mvc.perform(post("/dashboard/clients/revoke").param("client_id", "tienda-1").with(user(DEV)))
            .andExpect(status().isForbidden());
        verify(clients, never()).revokeAs(any(), anyString());
    }
}
