package com.example.identity.dashboard;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.SanctionRefused;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
import com.example.identity.site.WebChainSlice;

/**
 * {@code /dashboard/sanciones} (decisions §26): who may see it, the form bound and validated with the field's message
 * on each refusal and what was typed kept, the duration read as an end, the lift's notice.
 */
@WebMvcTest(SanctionsController.class)
@Import(WebChainSlice.class)
class SanctionsControllerTest {

    static final AccountPrincipal DEV = WebChainSlice.account(7, Role.DEVELOPER_API);
    static final AccountPrincipal ADMIN = WebChainSlice.account(1, Role.ADMIN);
    static final Instant NOW = Instant.parse("2026-05-05T10:00:00Z");

    @Autowired
    MockMvc mvc;

    @MockitoBean
    SanctionService sanctions;
    @MockitoBean
    ClientService clients;
    @MockitoBean
    AccountAdministration administration;
    @MockitoBean
    Clock clock;

    @BeforeEach
    void now() {
        when(clock.instant()).thenReturn(NOW);
        when(sanctions.page(any(), eq(1), eq(50))).thenReturn(new SanctionService.Page(List.of(), false));
    }

    @Test
    void aDeveloperAndAnAdminSeeThePageAUserDoesNot() throws Exception {
        mvc.perform(get("/dashboard/sanciones").with(user(DEV)))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/sanctions"))
            .andExpect(model().attribute("admin", false))
            .andExpect(model().attribute("rows", List.of()));
        mvc.perform(get("/dashboard/sanciones").with(user(ADMIN)))
            .andExpect(status().isOk())
            .andExpect(model().attribute("admin", true));
        mvc.perform(get("/dashboard/sanciones").with(user(WebChainSlice.account(8, Role.USER))))
            .andExpect(status().isForbidden());
        mvc.perform(post("/dashboard/sanciones/crear").param("usuario_id", "5").param("motivo", "x").param("duracion", "P7D")
                .with(user(DEV)))
            .andExpect(status().isForbidden());
        verify(sanctions, never()).place(any(), anyLong(), any(), any(), any());
    }

    @Test
    void aWeekInOneApplicationIsPlacedAndTheBrowserSentToThePersonsSanctions() throws Exception {
        Sanction placed = new Sanction(12, 5, "Trampas", NOW.plus(Duration.ofDays(7)), "juego", 7, null, NOW, null);
        when(sanctions.place(new Sanctioner(7, false, null), 5, "Trampas", NOW.plus(Duration.ofDays(7)), "juego"))
                .thenReturn(placed);
        mvc.perform(post("/dashboard/sanciones/crear").param("usuario_id", "5").param("client_id", "juego")
                .param("motivo", "Trampas").param("duracion", "P7D").with(user(DEV)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/sanciones?usuario_id=5"))
            .andExpect(flash().attribute("notice", "Sanción #12 impuesta."));
        when(sanctions.place(new Sanctioner(1, true, null), 5, "Acoso", Instant.parse("2026-06-01T12:30:00Z"), null))
                .thenReturn(new Sanction(13, 5, "Acoso", Instant.parse("2026-06-01T12:30:00Z"), null, 1, null, NOW, null));
        mvc.perform(post("/dashboard/sanciones/crear").param("usuario_id", "5").param("client_id", "")
                .param("motivo", "Acoso").param("duracion", "fecha").param("hasta", "2026-06-01T12:30")
                .with(user(ADMIN)).with(csrf()))
            .andExpect(flash().attribute("notice", "Sanción #13 impuesta."));
    }

    @Test
    void eachRefusalShowsTheFormAgainWithTheFieldsMessageAndWhatWasTyped() throws Exception {
        mvc.perform(post("/dashboard/sanciones/crear").param("usuario_id", "cinco").param("motivo", "")
                .param("duracion", "siempre").with(user(DEV)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(view().name("dashboard/sanctions"))
            .andExpect(model().attribute("errors", Map.of("usuario_id", "usuario_id inválido", "motivo",
                    "Falta el parámetro motivo", "duracion", "Elige cuánto dura la sanción")));
        mvc.perform(post("/dashboard/sanciones/crear").param("usuario_id", "5").param("motivo", "Trampas")
                .param("duracion", "fecha").param("hasta", "mañana").with(user(DEV)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("errors", Map.of("hasta", "hasta inválido")));
        when(sanctions.place(any(), eq(5L), eq("Trampas"), any(), eq("ajena")))
                .thenThrow(new SanctionRefused(SanctionRefused.Reason.DENIED));
        mvc.perform(post("/dashboard/sanciones/crear").param("usuario_id", "5").param("client_id", "ajena")
                .param("motivo", "Trampas").param("duracion", "P1D").with(user(DEV)).with(csrf()))
            .andExpect(status().isBadRequest())
            .andExpect(model().attribute("errors", Map.of("error", "Permiso denegado")))
            .andExpect(model().attribute("form", Map.of("usuario_id", "5", "client_id", "ajena", "motivo", "Trampas",
                    "duracion", "P1D", "hasta", "")));
    }

    @Test
    void aLiftSaysWhatBecameOfIt() throws Exception {
        mvc.perform(post("/dashboard/sanciones/levantar").param("id", "12").param("usuario_id", "5").with(user(DEV))
                .with(csrf()))
            .andExpect(redirectedUrl("/dashboard/sanciones?usuario_id=5"))
            .andExpect(flash().attribute("notice", "Sanción levantada."));
        verify(sanctions).lift(new Sanctioner(7, false, null), 12);
        doThrow(new SanctionRefused(SanctionRefused.Reason.NOT_FOUND)).when(sanctions).lift(any(), eq(99L));
        mvc.perform(post("/dashboard/sanciones/levantar").param("id", "99").with(user(DEV)).with(csrf()))
            .andExpect(redirectedUrl("/dashboard/sanciones"))
            .andExpect(flash().attribute("notice", "Sanción no encontrada"));
    }
}
