package com.example.identity.dashboard;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.Pattern;

import org.springframework.web.bind.annotation.BindParam;

import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;

/**
 * The developer page's "Registrar aplicación" form, bound by its fields' names (decisions §10, §12.7, §16, §20, §21,
 * §24): {@code name}, {@code redirect_uri}, {@code post_logout_redirect_uris} (one address per line),
 * {@code type}, {@code backchannel_logout_uri}, {@code webhook_url}, and the checkboxes {@code par_obligatorio},
 * {@code dpop_obligatorio} (decisions §28) and {@code invitados}. The type is
 * checked here; everything else by the services the management routes share ({@code ClientService},
 * {@code Webhooks}), whose refusals name the same fields.
 */
record ClientForm(
        String name,
        @BindParam("redirect_uri") String redirectUri,
        @BindParam("post_logout_redirect_uris") String postLogoutRedirectUris,
        @Pattern(regexp = "|web|nativa|dispositivo|servidor", message = TYPE_REFUSED) String type,
        @BindParam("backchannel_logout_uri") String backChannelLogoutUri,
        @BindParam("webhook_url") String webhookUrl,
        @BindParam("par_obligatorio") Boolean parObligatorio,
        @BindParam("dpop_obligatorio") Boolean dpopObligatorio,
        Boolean invitados) {

    static final String TYPE_REFUSED = "Tipo inválido: web, nativa, dispositivo o servidor";

    /** The type chosen; {@code web} when none was. */
    ClientType clientType() {
        return type == null || type.isEmpty() ? ClientType.WEB : ClientType.parse(type).orElseThrow();
    }

    /** The logout addresses, one per line, blank lines ignored. */
    List<String> logoutUris() {
        return postLogoutRedirectUris == null ? List.of()
                : postLogoutRedirectUris.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    /** What the application requires of its own requests (decisions §28): the boxes ticked. */
    SenderConstraints constraints() {
        return new SenderConstraints(Boolean.TRUE.equals(parObligatorio), Boolean.TRUE.equals(dpopObligatorio));
    }

    /** Whether the application accepts guest players (decisions §24): the box was ticked. */
    boolean acceptsGuests() {
        return Boolean.TRUE.equals(invitados);
    }

    /** The form's name of the field a Java property is bound from (what the page's errors are keyed by). */
    static String fieldOf(String property) {
        return switch (property) {
            case "redirectUri" -> "redirect_uri";
            case "postLogoutRedirectUris" -> "post_logout_redirect_uris";
            case "backChannelLogoutUri" -> "backchannel_logout_uri";
            case "webhookUrl" -> "webhook_url";
            case "parObligatorio" -> "par_obligatorio";
            case "dpopObligatorio" -> "dpop_obligatorio";
            default -> property;
        };
    }

    /** The values as typed, by field name, for the page that shows the form again. */
    Map<String, Object> asTyped() {
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("name", name == null ? "" : name);
        typed.put("redirect_uri", redirectUri == null ? "" : redirectUri);
        typed.put("post_logout_redirect_uris", postLogoutRedirectUris == null ? "" : postLogoutRedirectUris);
        typed.put("type", type == null ? "web" : type);
        typed.put("backchannel_logout_uri", backChannelLogoutUri == null ? "" : backChannelLogoutUri);
        typed.put("webhook_url", webhookUrl == null ? "" : webhookUrl);
        typed.put("par_obligatorio", Boolean.TRUE.equals(parObligatorio));
        typed.put("dpop_obligatorio", Boolean.TRUE.equals(dpopObligatorio));
        typed.put("invitados", acceptsGuests());
        return typed;
    }
}
