package com.example.identity.settings;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.audit.AuditEvent;

/**
 * {@code GET /cuenta/datos} (decisions §20): the JSON download of everything stored about the person
 * ({@link DataExport}), as an attachment named {@code mis-datos.json}, never cached; audited.
 */
@Controller
class DataExportController {

    private final DataExport export;
    private final ApplicationEventPublisher events;

    DataExportController(DataExport export, ApplicationEventPublisher events) {
        this.export = export;
        this.events = events;
    }

    @GetMapping(Endpoints.ACCOUNT_DATA)
    ResponseEntity<Map<String, Object>> download(@AuthenticationPrincipal AccountPrincipal user, HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        Map<String, Object> data = export.of(user.id(), session == null ? null : session.getId());
        events.publishEvent(new AuditEvent(AuditEvent.Type.DATA_EXPORTED, "usuario #" + user.id()));
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename("mis-datos.json").build()
                        .toString())
                .body(data);
    }
}
