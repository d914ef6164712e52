package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.site.WebChainSlice;
import com.example.identity.web.PagePolicy;

/** The login page: its notices, the way back, the e-mail a relying party hinted. The form's POST is LoginIT's. */
@WebMvcTest(LoginController.class)
@Import(WebChainSlice.class)
class LoginControllerTest {

    static final String AUTHORIZE = "/oauth/authorize.php?client_id=tienda&redirect_uri="
            + ReturnToApplicationTest.CALLBACK + "&login_hint=ana%40example.com";

    @Autowired
    MockMvc mvc;

    @MockitoBean
    RegisteredClientRepository clients;

    @Test
    void theBarePage() throws Exception {
        mvc.perform(get("/login/"))
            .andExpect(status().isOk())
            .andExpect(view().name("signin/login"))
            .andExpect(model().attribute("redirect", (Object) null))
            .andExpect(model().attribute("loginHint", (Object) null))
            .andExpect(model().attribute("error", false))
            .andExpect(model().attribute("loggedOut", false))
            .andExpect(model().attribute("expired", false))
            .andExpect(model().attribute("throttled", false))
            .andExpect(header().string(PagePolicy.HEADER, PagePolicy.PAGES))
            .andExpect(content().string(not(containsString("Correo o contraseña incorrectos."))));
    }

    @Test
    void eachNoticeInSpanish() throws Exception {
        mvc.perform(get("/login/").param("error", ""))
            .andExpect(model().attribute("error", true))
            .andExpect(content().string(containsString("Correo o contraseña incorrectos.")));
        mvc.perform(get("/login/").param("logout", ""))
            .andExpect(model().attribute("loggedOut", true))
            .andExpect(content().string(containsString("Has cerrado la sesión.")));
        mvc.perform(get("/login/").param("expired", ""))
            .andExpect(model().attribute("expired", true))
            .andExpect(content().string(containsString("Tu sesión ha terminado. Vuelve a iniciar sesión.")));
        mvc.perform(get("/login/").param("bloqueado", ""))
            .andExpect(model().attribute("throttled", true))
            .andExpect(content().string(containsString("Demasiados intentos. Espera un momento e inténtalo de nuevo más tarde.")));
    }

    @Test
    void onlyALocalWayBackIsKept() throws Exception {
        mvc.perform(get("/login/").param("redirect", "/cuenta/seguridad"))
            .andExpect(model().attribute("redirect", "/cuenta/seguridad"));
        mvc.perform(get("/login/").param("redirect", "https://evil.example/"))
            .andExpect(model().attribute("redirect", (Object) null));
        mvc.perform(get("/login/").param("redirect", "//evil.example/"))
            .andExpect(model().attribute("redirect", (Object) null));
    }

    @Test
    void anApplicationsLoginHintPrefillsTheAddressAndItsAddressMayBeReached() throws Exception {
        when(clients.findByClientId("tienda")).thenReturn(ReturnToApplicationTest.client("tienda", false));
        mvc.perform(get("/login/").param("redirect", AUTHORIZE))
            .andExpect(model().attribute("loginHint", "ana@example.com"))
            .andExpect(header().string(PagePolicy.HEADER, PagePolicy.allowingFormsTo(ReturnToApplicationTest.CALLBACK)))
            .andExpect(content().string(containsString("value=\"ana@example.com\"")));
    }

    @Test
    void theHintIsReadOnlyFromAnAuthorizationRequestAndOnlyWhenPlausible() {
        assertThat(LoginController.loginHint(null)).isNull();
        assertThat(LoginController.loginHint("/cuenta/?login_hint=ana%40example.com")).isNull();
        assertThat(LoginController.loginHint("/oauth/authorize.php?login_hint=+ana+b%40example.com+")).isEqualTo("ana b@example.com");
        assertThat(LoginController.loginHint("/oauth/authorize.php?login_hint=%20")).isNull();
        assertThat(LoginController.loginHint("/oauth/authorize.php?login_hint=" + "a".repeat(255))).isNull();
        assertThat(LoginController.loginHint("/oauth/authorize.php?login_hint=" + "a".repeat(254))).hasSize(254);
        assertThat(LoginController.loginHint("/oauth/authorize.php?login_hint=%zz")).isNull();
    }
}
