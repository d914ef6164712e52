package com.example.identity.site;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;

/** {@code /} and the chain's rules that every page shares: who is logged in, the login redirect, the gate. */
@WebMvcTest(HomeController.class)
@Import(WebChainSlice.class)
class HomeControllerTest {

    @Autowired
    MockMvc mvc;

    @Test
    void aVisitorSeesTheWayToTheLogin() throws Exception {
        mvc.perform(get("/"))
            .andExpect(status().isOk())
            .andExpect(view().name("site/home"))
            .andExpect(model().attribute("user", nullValue()))
            .andExpect(model().attribute("currentUser", nullValue()))
            .andExpect(content().string(containsString("Un solo inicio de sesión para juegos, sitios web y paneles.")));
    }

    @Test
    void aDeveloperSeesWhoTheyAreAndTheDashboard() throws Exception {
        AccountPrincipal dev = WebChainSlice.account(7, Role.DEVELOPER_API);
        mvc.perform(get("/").with(user(dev)))
            .andExpect(status().isOk())
            .andExpect(model().attribute("user", dev))
            .andExpect(model().attribute("currentUser", dev))
            .andExpect(content().string(containsString("persona7@example.com")))
            .andExpect(content().string(containsString("Ir al panel de desarrollador")));
    }

    @Test
    void aUserSeesNoDashboardLink() throws Exception {
        mvc.perform(get("/").with(user(WebChainSlice.account(8, Role.USER))))
            .andExpect(status().isOk())
            .andExpect(content().string(not(containsString("Ir al panel de desarrollador"))));
    }

    @Test
    void pagesSendNoReferrerAndThePagePolicy() throws Exception {
        mvc.perform(get("/"))
            .andExpect(header().string("Referrer-Policy", "no-referrer"))
            .andExpect(header().string("Content-Security-Policy", com.example.identity.web.PagePolicy.PAGES));
    }

    @Test
    void aVisitorAskingForAPageIsSentToTheLoginWithTheWayBack() throws Exception {
        mvc.perform(get("/cuenta/seguridad?llave=nueva"))
            .andExpect(status().isFound())
            .andExpect(redirectedUrl("/login/?redirect=%2Fcuenta%2Fseguridad%3Fllave%3Dnueva"));
    }

    @Test
    void aOneTimePasswordLeadsToThePasswordPageFirst() throws Exception {
        var mustChange = new AccountPrincipal(9, "Ana", "ana@example.com", Role.USER, true, true, null);
        mvc.perform(get("/?x=1").with(user(mustChange)))
            .andExpect(status().isFound())
            .andExpect(redirectedUrl("/cuenta/contrasena?redirect=%2F%3Fx%3D1"));
    }
}
