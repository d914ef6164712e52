package com.example.identity.dashboard;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.PageRequest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import com.example.identity.account.Role;
import com.example.identity.audit.AuditEvent;
import com.example.identity.audit.AuditRecord;
import com.example.identity.audit.AuditTrail;
import com.example.identity.site.WebChainSlice;

/** {@code /dashboard/admin/audit.php}: the trail's page, newest first, for admins. */
@WebMvcTest(AuditController.class)
@Import(WebChainSlice.class)
class AuditControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    AuditTrail trail;

    @Test
    void onePageOfTheTrailInUtc() throws Exception {
        AuditRecord record = mock(AuditRecord.class);
        when(record.getOccurredAt()).thenReturn(Instant.parse("2025-05-05T10:00:07Z"));
        when(record.getEvent()).thenReturn(AuditEvent.Type.LOGIN_FAILED);
        when(record.getActor()).thenReturn("ana@example.com");
        when(record.getAddress()).thenReturn("203.0.113.9");
        when(record.getSubject()).thenReturn("segundo factor");
        when(trail.page(1)).thenReturn(new PageImpl<>(List.of(record), PageRequest.of(1, 50), 120));
        mvc.perform(get("/dashboard/admin/audit.php").param("pagina", "2").with(user(WebChainSlice.account(1, Role.ADMIN))))
            .andExpect(status().isOk())
            .andExpect(view().name("dashboard/admin-audit"))
            .andExpect(model().attribute("rows", List.of(new AuditController.Row("2025-05-05 10:00:07 UTC",
                    AuditEvent.Type.LOGIN_FAILED.label(), "LOGIN_FAILED", "ana@example.com", "203.0.113.9", "segundo factor"))))
            .andExpect(model().attribute("page", 2))
            .andExpect(model().attribute("pages", 3))
            .andExpect(content().string(containsString("203.0.113.9")));
    }

    /** A deleted account's lines name it "usuario #<id>" as the actor too (account/AccountDeletion): shown in English. */
    @Test
    void aDeletedAccountAsActorIsShownInThePagesLanguage() throws Exception {
        AuditRecord record = mock(AuditRecord.class);
        when(record.getOccurredAt()).thenReturn(Instant.parse("2025-05-05T10:00:07Z"));
        when(record.getEvent()).thenReturn(AuditEvent.Type.USER_DELETED);
        when(record.getActor()).thenReturn("usuario #14");
        when(record.getSubject()).thenReturn("usuario #14");
        when(trail.page(0)).thenReturn(new PageImpl<>(List.of(record), PageRequest.of(0, 50), 1));
        mvc.perform(get("/dashboard/admin/audit.php").header("Accept-Language", "en")
                .with(user(WebChainSlice.account(1, Role.ADMIN))))
            .andExpect(status().isOk())
            .andExpect(model().attribute("rows", List.of(new AuditController.Row("2025-05-05 10:00:07 UTC",
                    AuditEvent.Type.USER_DELETED.label(), "USER_DELETED", "user #14", null, "user #14"))));
    }

    @Test
    void aPageBelowOneIsTheFirst() throws Exception {
        when(trail.page(0)).thenReturn(new PageImpl<>(List.of(), PageRequest.of(0, 50), 0));
        mvc.perform(get("/dashboard/admin/audit.php").param("pagina", "-3").with(user(WebChainSlice.account(1, Role.ADMIN))))
            .andExpect(model().attribute("page", 1))
            .andExpect(model().attribute("pages", 1));
        verify(trail).page(0);
    }

    @Test
    void aPageThatIsNotANumberIsA400() throws Exception {
        mvc.perform(get("/dashboard/admin/audit.php").param("pagina", "dos").with(user(WebChainSlice.account(1, Role.ADMIN))))
            .andExpect(status().isBadRequest());
    }
}
