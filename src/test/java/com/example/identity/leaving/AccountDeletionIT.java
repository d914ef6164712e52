package com.example.identity.leaving;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountDeletion;
import com.example.identity.account.Caller;
import com.example.identity.account.EmailChanges;
import com.example.identity.account.Role;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.MailFiles;
import com.example.identity.support.UserKeyedTables;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;

import tools.jackson.databind.JsonNode;

/**
 * Deleting an account (decisions §20) over real HTTP, on whichever database the run uses: {@code /cuenta/eliminar}
 * asks for the password, the second factor and the address; then every session ends, every row of every table
 * that refers to the account is gone (read from the database's metadata, so a table added later is checked too),
 * tokens are refused, the address is free, the id is not given again, the audit trail keeps the id without the
 * address. The admin's "Eliminar" does the same for someone else, never for the admin's own account.
 */
class AccountDeletionIT extends LeavingTestBase {

    @Autowired
    ApiTokenService tokens;

    @Autowired
    SecondFactors factors;

    @Autowired
    EmailChanges emailChanges;

    @Autowired
    DataSource dataSource;

    @Autowired
    DeletedAccounts events;

    @Autowired
    AccountDeletion deletion;

    Map<String, String> form(WebClient web, String contrasena, String codigo, String confirmacion) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("contrasena", contrasena);
        if (codigo != null) {
            form.put("codigo", codigo);
        }
        form.put("confirmacion", confirmacion);
        form.put("_csrf", web.csrfFrom("/cuenta/eliminar"));
        return form;
    }

    static int apiStatus(String token) {
        return new WebClient(ISSUER).get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode();
    }

    @Test
    void aPersonDeletesTheirAccountAndEverythingItOwnsGoes() {
        User user = newLoggedInUser(Role.DEVELOPER_API);
        WebClient phone = login(user.email());
        String personal = tokens.createPersonal(user.id(), "juego").value();
        var own = newClient(user.id());
        var app = newClient(adminId());
        JsonNode signedIn = tokens(user.browser(), app, "openid offline_access");
        String accessToken = signedIn.get("access_token").asString();
        String secret = factors.newSecret();
        assertThat(factors.enable(user.id(), secret, TotpCodes.now(secret, 0))).isNotEmpty();
        emailChanges.request(user.id(), "nuevo-" + UUID.randomUUID() + "@example.com", PASSWORD);
        assertThat(apiStatus(personal)).isEqualTo(200);
        for (String table : List.of("api_tokens", "refresh_tokens", "oauth_authorizations", "user_totp",
                "recovery_codes", "email_changes")) {
            assertThat(jdbc.queryForObject("select count(*) from " + table + " where user_id = ?", Integer.class,
                    user.id())).as(table).isPositive();
        }
        WebClient laptop = user.browser();

        HttpResponse<String> page = laptop.get("/cuenta/eliminar");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(page.body()).contains("name=\"contrasena\"").contains("name=\"codigo\"")
                .contains("name=\"confirmacion\"").contains("action=\"/cuenta/eliminar\"");
        assertThat(laptop.get("/cuenta/").body()).contains("href=\"/cuenta/eliminar\"").contains("href=\"/cuenta/datos\"");

        // without the page's CSRF token, with another address, a wrong password or no code: nothing happens
        assertThat(laptop.postForm("/cuenta/eliminar", Map.of("contrasena", PASSWORD, "confirmacion", user.email()))
                .statusCode()).isEqualTo(403);
        HttpResponse<String> wrongAddress = laptop.postForm("/cuenta/eliminar",
                form(laptop, PASSWORD, TotpCodes.now(secret, 1), "otra@example.com"));
        assertThat(wrongAddress.statusCode()).isEqualTo(400);
        assertThat(wrongAddress.body()).contains("Escribe la dirección de correo de tu cuenta tal como es");
        HttpResponse<String> wrongPassword = laptop.postForm("/cuenta/eliminar",
                form(laptop, "wrong-password-123", TotpCodes.now(secret, 1), user.email()));
        assertThat(wrongPassword.statusCode()).isEqualTo(400);
        assertThat(wrongPassword.body()).contains("La contraseña no es correcta");
        HttpResponse<String> noCode = laptop.postForm("/cuenta/eliminar", form(laptop, PASSWORD, "000000", user.email()));
        assertThat(noCode.statusCode()).isEqualTo(400);
        assertThat(noCode.body()).contains("Código incorrecto");
        assertThat(accounts.findById(user.id())).isPresent();
        assertThat(phone.get("/cuenta/").statusCode()).isEqualTo(200);

        HttpResponse<String> deleted = laptop.postForm("/cuenta/eliminar",
                form(laptop, PASSWORD, TotpCodes.now(secret, 1), user.email().toUpperCase()));
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(deleted.body()).contains("id=\"account-deleted\"");

        // every session ended, every token refused
        assertThat(laptop.get("/cuenta/").statusCode()).isEqualTo(302);
        assertThat(phone.get("/cuenta/").statusCode()).isEqualTo(302);
        assertThat(jdbc.queryForObject("select count(*) from spring_session where principal_name = ?", Integer.class,
                user.email())).isZero();
        assertThat(apiStatus(personal)).isEqualTo(401);
        assertThat(apiStatus(accessToken)).isEqualTo(401);
        assertThat(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", signedIn.get("refresh_token").asString(), "client_id", app.clientId(),
                "client_secret", app.clientSecret())).statusCode()).isEqualTo(400);
        // every row of every table that refers to users, whatever migration made it
        assertAccountGone(user);
        assertThat(jdbc.queryForObject("select count(*) from oauth_clients where client_id = ?", Integer.class,
                own.clientId())).isZero();
        // the audit trail keeps the events with the id, never the address
        assertThat(jdbc.queryForObject("select count(*) from audit_events where lower(actor) like ? or lower(subject) like ?",
                Integer.class, "%" + user.email() + "%", "%" + user.email() + "%")).isZero();
        String subject = "usuario #" + user.id();
        assertThat(jdbc.queryForList("select actor from audit_events where event = 'USER_DELETED' and subject = ?",
                String.class, subject)).containsExactly(subject);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'LOGIN_SUCCEEDED' and actor = ?",
                Integer.class, subject)).isEqualTo(2);
        assertThat(events.of(user.id()))
                .singleElement().satisfies(e -> {
                    assertThat(e.byAdmin()).isFalse();
                    assertThat(e.subject()).isEqualTo("user:" + user.id());
                });

        // the address is free again; the id is not given again
        long again = accounts.create("Lea otra vez", user.email(), PASSWORD, Role.USER).getId();
        assertThat(again).isGreaterThan(user.id());
        assertThat(login(user.email()).get("/cuenta/").statusCode()).isEqualTo(200);
    }

    void assertAccountGone(User user) {
        assertThat(accounts.findById(user.id())).isEmpty();
        List<UserKeyedTables.Reference> references = new UserKeyedTables(dataSource).referencesToUsers();
        assertThat(references).extracting(r -> r.table() + "." + r.column())
                .contains("api_tokens.user_id", "oauth_clients.owner_id", "refresh_tokens.user_id", "oauth_consents.user_id",
                        "user_totp.user_id", "recovery_codes.user_id", "email_changes.user_id", "password_resets.user_id",
                        "device_authorizations.user_id", "oauth_authorizations.user_id");
        for (UserKeyedTables.Reference reference : references) {
            assertThat(jdbc.queryForObject("select count(*) from " + reference.table() + " where " + reference.column()
                    + " = ?", Integer.class, user.id())).as(reference.toString()).isZero();
        }
        assertThat(jdbc.queryForObject("select count(*) from user_entities where name = ?", Integer.class,
                user.email())).isZero();
        assertThat(jdbc.queryForObject("select count(*) from deleted_users where id = ?", Integer.class, user.id()))
                .isEqualTo(1);
    }

    @Test
    void anAdminDeletesAnotherAccountButNeverTheirOwn() {
        User admin = newLoggedInUser(Role.ADMIN);
        User user = newLoggedInUser(Role.USER);
        String csrf = admin.browser().csrfFrom("/dashboard/admin.php");
        assertThat(admin.browser().get("/dashboard/admin.php?q=" + user.email()).body())
                .contains("action=\"/dashboard/admin/users/delete\"");

        // not one's own
        HttpResponse<String> own = admin.browser().postForm("/dashboard/admin/users/delete",
                Map.of("id", String.valueOf(admin.id()), "_csrf", csrf));
        assertThat(own.statusCode()).isEqualTo(302);
        assertThat(accounts.findById(admin.id())).isPresent();
        assertThat(admin.browser().get("/dashboard/admin.php").body())
                .contains("No se pudo eliminar esa cuenta (no puedes eliminar la tuya, y debe quedar al menos un admin activo).");
        // not by someone who is not an admin
        assertThat(user.browser().postForm("/dashboard/admin/users/delete", Map.of("id", String.valueOf(admin.id()),
                "_csrf", user.browser().csrfFrom("/cuenta/"))).statusCode()).isEqualTo(403);

        HttpResponse<String> deleted = admin.browser().postForm("/dashboard/admin/users/delete",
                Map.of("id", String.valueOf(user.id()), "_csrf", admin.browser().csrfFrom("/dashboard/admin.php")));
        assertThat(WebClient.location(deleted)).isEqualTo("/dashboard/admin.php#users");
        assertThat(admin.browser().get("/dashboard/admin.php").body())
                .contains("Cuenta eliminada con todos sus datos; sus sesiones se han cerrado.");
        assertThat(user.browser().get("/cuenta/").statusCode()).isEqualTo(302);
        assertAccountGone(user);
        assertThat(jdbc.queryForList("select actor from audit_events where event = 'USER_DELETED' and subject = ?",
                String.class, "usuario #" + user.id() + " (por un admin)")).containsExactly(admin.email());
        assertThat(events.of(user.id()))
                .singleElement().satisfies(e -> assertThat(e.byAdmin()).isTrue());
    }

    /**
     * Issue 39.7 (decisions §20): an account that changed its address leaves neither address in the trail, not the
     * old one it logged in with, not the one its change named, not the new one.
     */
    @Test
    void aDeletionAfterAnAddressChangeLeavesNoneOfItsAddresses() throws Exception {
        User user = newLoggedInUser(Role.USER);
        String fresh = "despues-" + UUID.randomUUID() + "@example.com";
        assertThat(WebClient.location(user.browser().postForm("/cuenta/correo", Map.of("correo", fresh, "contrasena",
                PASSWORD, "_csrf", user.browser().csrfFrom("/cuenta/"))))).isEqualTo("/cuenta/?correo=enviado");
        String link = MailFiles.link(MailFiles.newest(fresh, "Confirma tu nueva dirección de correo"),
                Pattern.compile("/cuenta/correo/confirmar\\?token=([A-Za-z0-9_-]{43})"));
        var anywhere = new WebClient(ISSUER);
        String page = anywhere.get("/cuenta/correo/confirmar?token=" + link).body();
        assertThat(anywhere.postForm("/cuenta/correo/confirmar", Map.of("token", link, "_csrf", WebClient.csrfOf(page)))
                .body()).contains("id=\"email-changed\"");
        assertThat(login(fresh).get("/cuenta/").statusCode()).isEqualTo(200);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where actor = ? or subject like ?",
                Integer.class, user.email(), "%" + user.email() + "%")).as("the old address before").isPositive();

        assertThat(deletion.delete(user.id(), new Caller(user.id(), false))).isEqualTo(AccountDeletion.Outcome.DELETED);

        for (String address : List.of(user.email(), fresh)) {
            assertThat(jdbc.queryForList("select event || ' ' || coalesce(actor, '') || ' ' || coalesce(subject, '') "
                    + "from audit_events where lower(actor) like ? or lower(subject) like ?", String.class,
                    "%" + address + "%", "%" + address + "%")).as(address).isEmpty();
        }
        String subject = "usuario #" + user.id();
        assertThat(jdbc.queryForList("select subject from audit_events where event = 'EMAIL_CHANGED' and subject like ?",
                String.class, subject + " %")).containsExactly(subject + " de " + subject + " a " + subject);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'LOGIN_SUCCEEDED' and actor = ?",
                Integer.class, subject)).isEqualTo(2);
    }
}
