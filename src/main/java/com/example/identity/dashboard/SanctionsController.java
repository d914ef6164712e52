package com.example.identity.dashboard;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.OAuthClient;
import com.example.identity.common.ListQuery;
import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.SanctionRefused;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
import com.example.identity.web.FormErrors;

/**
 * {@code /dashboard/sanciones} (decisions §26): an admin sanctions anyone in every application or in one, an
 * application's owner a player in one of their applications; both see the sanctions they may see (a person's, with
 * {@code ?usuario_id=}, linked from the admin page's users; else the newest, a page at a time) and lift them early.
 * The same {@link SanctionService} as {@code /api/sanciones/*.php}: the same rules, webhooks, audit lines and session
 * endings. The form is a {@link SanctionForm} bound with {@code @Valid}; a refusal shows the page again with the
 * field's message and what was typed (status 400).
 */
@Controller
class SanctionsController {

    static final String VIEW = "dashboard/sanctions";
    static final String PLACE = Endpoints.SANCTIONS_PAGE + "/crear";
    static final String LIFT = Endpoints.SANCTIONS_PAGE + "/levantar";

    private final SanctionService sanctions;
    private final ClientService clients;
    private final AccountAdministration administration;
    private final Clock clock;

    SanctionsController(SanctionService sanctions, ClientService clients, AccountAdministration administration,
            Clock clock) {
        this.sanctions = sanctions;
        this.clients = clients;
        this.administration = administration;
        this.clock = clock;
    }

    @GetMapping(Endpoints.SANCTIONS_PAGE)
    String page(@AuthenticationPrincipal AccountPrincipal me, @RequestParam(name = "usuario_id", required = false) String user,
            @RequestParam(required = false) String page, Model model, HttpServletResponse response) {
        Map<String, Object> typed = new SanctionForm(null, null, "", "P7D", "").asTyped();
        Long userId = null;
        if (user != null && !user.isBlank()) {
            try {
                userId = Long.parseLong(user.strip());
                typed.put("usuario_id", Long.toString(userId));
            }
            catch (NumberFormatException e) {
                model.addAttribute("listError", SanctionForm.USER_INVALID);
            }
        }
        return show(me, userId, page, typed, Map.of(), model, response);
    }

    @PostMapping(PLACE)
    String place(@AuthenticationPrincipal AccountPrincipal me, @Valid @ModelAttribute SanctionForm form,
            BindingResult result, Model model, HttpServletResponse response, RedirectAttributes redirect) {
        Map<String, String> errors = FormErrors.of(result, SanctionForm::fieldOf);
        if (errors.isEmpty()) {
            try {
                Sanction placed = sanctions.place(Sanctioner.of(Caller.of(me)), form.account(), form.motivo(),
                        form.end(clock.instant()), form.application());
                redirect.addFlashAttribute("notice", "Sanción #" + placed.id() + " impuesta.");
                return "redirect:" + personPage(placed.userId());
            }
            catch (SanctionRefused e) {
                errors.put(e.reason().field() == null ? "error" : e.reason().field(), e.getMessage());
            }
        }
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        // the person's sanctions below the form, unless the form's account is what was wrong
        Long person = errors.containsKey("usuario_id") ? null : form.typedAccount();
        return show(me, person, null, form.asTyped(), errors, model, response);
    }

    @PostMapping(LIFT)
    String lift(@AuthenticationPrincipal AccountPrincipal me, @RequestParam long id,
            @RequestParam(name = "usuario_id", required = false) Long userId, RedirectAttributes redirect) {
        try {
            sanctions.lift(Sanctioner.of(Caller.of(me)), id);
            redirect.addFlashAttribute("notice", "Sanción levantada.");
        }
        catch (SanctionRefused e) {
            redirect.addFlashAttribute("notice", e.getMessage());
        }
        return "redirect:" + (userId == null ? Endpoints.SANCTIONS_PAGE : personPage(userId));
    }

    private String show(AccountPrincipal me, @Nullable Long userId, @Nullable String page, Map<String, Object> typed,
            Map<String, String> errors, Model model, HttpServletResponse response) {
        Caller caller = Caller.of(me);
        Sanctioner who = Sanctioner.of(caller);
        Instant now = clock.instant();
        List<Sanction> shown = List.of();
        if (userId != null) {
            try {
                shown = sanctions.ofUser(who, userId);
                model.addAttribute("person", userId);
                model.addAttribute("personEmail", caller.admin() ? administration.emailsOf(List.of(userId)).get(userId) : null);
            }
            catch (SanctionRefused e) {
                model.addAttribute("listError", e.getMessage());
            }
        }
        else {
            ListQuery query = pageOf(page, model);
            var found = sanctions.page(who, query.page(), query.size());
            shown = found.sanctions();
            model.addAttribute("prevUrl", query.page() > 1 ? Endpoints.SANCTIONS_PAGE + "?page=" + (query.page() - 1) : null);
            model.addAttribute("nextUrl", found.more() ? Endpoints.SANCTIONS_PAGE + "?page=" + (query.page() + 1) : null);
        }
        List<OAuthClient> own = clients.listForOwner(me.id()).stream()
                .filter(c -> !c.isRevoked() && c.getType() != ClientType.SERVER).toList();
        Map<String, String> names = new LinkedHashMap<>();
        own.forEach(c -> names.put(c.getClientId(), c.getName()));
        Set<Long> people = new HashSet<>();
        shown.forEach(s -> {
            people.add(s.userId());
            if (s.clientId() != null && !names.containsKey(s.clientId())) {
                clients.findByClientId(s.clientId()).ifPresent(c -> names.put(c.getClientId(), c.getName()));
            }
        });
        Map<Long, String> emails = caller.admin() ? administration.emailsOf(people) : Map.of();
        model.addAttribute("admin", caller.admin());
        model.addAttribute("applications", own);
        model.addAttribute("rows", shown.stream().map(s -> SanctionRow.of(s, now, names, emails)).toList());
        model.addAttribute("form", typed);
        model.addAttribute("errors", errors);
        return VIEW;
    }

    private static ListQuery pageOf(@Nullable String page, Model model) {
        try {
            return ListQuery.parse(page, null, null);
        }
        catch (ListQuery.InvalidListQueryException e) {
            model.addAttribute("listError", e.getMessage());
            return ListQuery.FIRST;
        }
    }

    private static String personPage(long userId) {
        return UriComponentsBuilder.fromPath(Endpoints.SANCTIONS_PAGE).queryParam("usuario_id", userId).build().toUriString();
    }

    /** A sanction as the page's table shows it; {@code state}: en-vigor, levantada or terminada (a message key's end). */
    record SanctionRow(long id, long userId, String person, @Nullable String clientId, String application, String motivo,
            @Nullable String hasta, String created, String state, boolean inForce) {

        static SanctionRow of(Sanction s, Instant now, Map<String, String> names, Map<Long, String> emails) {
            String state = s.inForceAt(now) ? "en-vigor" : s.liftedAt() != null ? "levantada" : "terminada";
            String person = emails.containsKey(s.userId()) ? emails.get(s.userId()) : "#" + s.userId();
            return new SanctionRow(s.id(), s.userId(), person, s.clientId(),
                    s.clientId() == null ? "" : names.getOrDefault(s.clientId(), s.clientId()), s.motivo(),
                    s.hasta() == null ? null : Views.when(s.hasta()), Views.when(s.createdAt()), state, s.inForceAt(now));
        }
    }
}
