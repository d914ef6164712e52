package com.example.identity.settings;

import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;
import com.example.identity.consent.Consents;
import com.example.identity.site.WebChainSlice;

/** {@code /cuenta/aplicaciones}: the consents given, and their withdrawal. */
@WebMvcTest(GivenConsentsController.class)
@Import(WebChainSlice.class)
class GivenConsentsControllerTest {

    static final AccountPrincipal ANA = WebChainSlice.account(3, Role.USER);

    @Autowired
    MockMvc mvc;

    @MockitoBean
    Consents consents;

    @Test
    void theApplicationsGivenConsentAreListed() throws Exception {
        var given = new Consents.Given("tienda", "La Tienda", List.of("openid", "email"), Instant.parse("2025-05-05T10:00:00Z"));
        when(consents.of(3)).thenReturn(List.of(given));
        mvc.perform(get("/cuenta/aplicaciones").with(user(ANA)))
            .andExpect(status().isOk())
            .andExpect(view().name("settings/applications"))
            .andExpect(model().attribute("consents", List.of(given)))
            .andExpect(model().attribute("withdrawn", false))
            .andExpect(content().string(containsString("La Tienda")))
            .andExpect(content().string(containsString("2025-05-05 10:00 UTC")));
        mvc.perform(get("/cuenta/aplicaciones").param("retirada", "").with(user(ANA)))
            .andExpect(model().attribute("withdrawn", true));
    }

    @Test
    void aConsentIsWithdrawnByItsOwner() throws Exception {
        when(consents.withdraw(3, "tienda")).thenReturn(true);
        mvc.perform(post("/cuenta/aplicaciones/retirar").param("client_id", "tienda").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/aplicaciones?retirada"));
        verify(consents).withdraw(3, "tienda");
    }

    @Test
    void withdrawingWhatWasNotGivenSaysNothingWasWithdrawn() throws Exception {
        mvc.perform(post("/cuenta/aplicaciones/retirar").param("client_id", "desconocida").with(user(ANA)).with(csrf()))
            .andExpect(redirectedUrl("/cuenta/aplicaciones"));
    }

    @Test
    void withoutCsrfOrASessionNothingIsWithdrawn() throws Exception {
        mvc.perform(post("/cuenta/aplicaciones/retirar").param("client_id", "tienda").with(user(ANA)))
            .andExpect(status().isForbidden());
        mvc.perform(post("/cuenta/aplicaciones/retirar").param("client_id", "tienda").with(csrf()))
            .andExpect(redirectedUrl("/login/?redirect=%2Fcuenta%2Faplicaciones%2Fretirar"));
        verify(consents, never()).withdraw(anyLong(), anyString());
    }
}
