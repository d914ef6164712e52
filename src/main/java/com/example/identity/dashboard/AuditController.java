package com.example.identity.dashboard;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import org.springframework.context.MessageSource;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.audit.AuditTrail;

/** {@code /dashboard/admin/audit.php}: the audit trail for admins (rule in the web chain), newest first, paged. */
@Controller
class AuditController {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final AuditTrail trail;
    private final MessageSource messages;

    AuditController(AuditTrail trail, MessageSource messages) {
        this.trail = trail;
        this.messages = messages;
    }

    @GetMapping("/dashboard/admin/audit.php")
    String audit(@RequestParam(name = "pagina", defaultValue = "1") int page, Locale locale, Model model) {
        var result = trail.page(Math.max(1, page) - 1);
        var subjects = new AuditSubjects(messages, locale);
        model.addAttribute("rows", result.getContent().stream().map(r -> new Row(WHEN.format(r.getOccurredAt()),
                r.getEvent().label(), r.getEvent().name(), subjects.shown(r.getActor()), r.getAddress(), subjects.shown(r.getSubject())))
                .toList());
        model.addAttribute("page", result.getNumber() + 1);
        model.addAttribute("pages", Math.max(1, result.getTotalPages()));
        return "dashboard/admin-audit";
    }

    /** {@code event} is the Spanish label, {@code type} the enum's name: the page shows message {@code audit.<type>}. */
    record Row(String when, String event, String type, String actor, String address, String subject) {
    }
}
