package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.web.webauthn.api.Bytes;
import org.springframework.security.web.webauthn.api.ImmutablePublicKeyCredentialUserEntity;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MailFiles;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * Changing the e-mail address (decisions §17) over HTTP, with the mail read from the {@code .eml} files of
 * the embedded default: the password confirms the request, the link sent to the new address confirms the
 * change (by POST), every session ends, {@code /api/userinfo.php} shows the new address at once, the old
 * address is told, the passkeys' user entity follows (up to the longest address, 254 characters), the link
 * works once, an address of another account is refused; requests are limited per account and per address.
 */
@IntegrationTest
class EmailChangeIT {

    static final Pattern LINK = Pattern.compile("/cuenta/correo/confirmar\\?token=([A-Za-z0-9_-]{43})");

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    PublicKeyCredentialUserEntityRepository passkeyUsers;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void anAddressChangesOnlyWhenTheNewMailboxConfirmsIt() throws Exception {
        String old = "viejo-" + UUID.randomUUID() + "@example.com";
        String fresh = "nuevo-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Elena", old, "correct-password-123", Role.DEVELOPER_API).getId();
        String token = tokens.createPersonal(id, "juego", TokenScope.DEFAULT).value();
        // the WebAuthn user entity a passkey registration made (named by the login name, passkey/)
        Bytes passkeyUser = Bytes.random();
        passkeyUsers.save(ImmutablePublicKeyCredentialUserEntity.builder().id(passkeyUser).name(old).displayName(old).build());
        var web = new WebClient(port);
        assertThat(web.login(old, "correct-password-123").statusCode()).isEqualTo(302);

        HttpResponse<String> wrongPassword = web.postForm("/cuenta/correo", Map.of("correo", fresh, "contrasena", "nope",
                "_csrf", web.csrfFrom("/cuenta/")));
        assertThat(wrongPassword.statusCode()).isEqualTo(400);
        assertThat(wrongPassword.body()).contains("La contraseña no es correcta");
        HttpResponse<String> asked = web.postForm("/cuenta/correo", Map.of("correo", fresh, "contrasena",
                "correct-password-123", "_csrf", web.csrfFrom("/cuenta/")));
        assertThat(WebClient.location(asked)).isEqualTo("/cuenta/?correo=enviado");
        // nothing changed yet
        assertThat(accounts.findById(id).orElseThrow().getCorreo()).isEqualTo(old);

        String link = MailFiles.link(MailFiles.newest(fresh, "Confirma tu nueva dirección de correo"), LINK);
        var anywhere = new WebClient(port);
        HttpResponse<String> page = anywhere.get("/cuenta/correo/confirmar?token=" + link);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains(fresh);
        assertThat(accounts.findById(id).orElseThrow().getCorreo()).as("opening the link changes nothing").isEqualTo(old);
        HttpResponse<String> confirmed = anywhere.postForm("/cuenta/correo/confirmar", Map.of("token", link,
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(confirmed.statusCode()).isEqualTo(200);
        assertThat(confirmed.body()).contains("id=\"email-changed\"");

        assertThat(accounts.findById(id).orElseThrow().getCorreo()).isEqualTo(fresh);
        assertThat(web.get("/cuenta/").statusCode()).as("the old session has ended").isEqualTo(302);
        HttpResponse<String> profile = new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token);
        assertThat(profile.body()).contains("\"correo\":\"" + fresh + "\"");
        assertThat(WebClient.location(new WebClient(port).login(fresh, "correct-password-123"))).doesNotContain("error");
        assertThat(MailFiles.newest(old, "Tu dirección de correo ha cambiado")).isNotNull();
        // the passkeys follow: the user entity is found under the new login name, no longer under the old one
        assertThat(passkeyUsers.findByUsername(fresh)).isNotNull().satisfies(entity -> {
            assertThat(entity.getId()).isEqualTo(passkeyUser);
            assertThat(entity.getDisplayName()).isEqualTo(fresh);
        });
        assertThat(passkeyUsers.findByUsername(old)).isNull();

        HttpResponse<String> again = new WebClient(port).get("/cuenta/correo/confirmar?token=" + link);
        assertThat(again.statusCode()).isEqualTo(400);
    }

    @Test
    void anAddressOfAnotherAccountIsRefusedAtConfirmation() throws Exception {
        String mine = "mia-" + UUID.randomUUID() + "@example.com";
        String theirs = "suya-" + UUID.randomUUID() + "@example.com";
        accounts.create("Mía", mine, "correct-password-123", Role.USER);
        accounts.create("Suya", theirs, "correct-password-123", Role.USER);
        var web = new WebClient(port);
        web.login(mine, "correct-password-123");
        HttpResponse<String> asked = web.postForm("/cuenta/correo", Map.of("correo", theirs, "contrasena",
                "correct-password-123", "_csrf", web.csrfFrom("/cuenta/")));
        assertThat(WebClient.location(asked)).as("the answer does not say the address is taken").isEqualTo("/cuenta/?correo=enviado");
        String link = MailFiles.link(MailFiles.newest(theirs, "Confirma tu nueva dirección de correo"), LINK);
        var other = new WebClient(port);
        HttpResponse<String> page = other.get("/cuenta/correo/confirmar?token=" + link);
        HttpResponse<String> refused = other.postForm("/cuenta/correo/confirmar", Map.of("token", link,
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("id=\"email-taken\"");
        assertThat(accounts.findByEmail(mine)).isPresent();
    }

    /** An address of 254 characters, the longest accepted: 64 before the {@code @}, 189 after. */
    static String longest(String prefix) {
        String local = (prefix + UUID.randomUUID()).replace("-", "");
        local = local + "x".repeat(64 - local.length());
        String address = local + "@" + "a".repeat(61) + "." + "b".repeat(61) + "." + "c".repeat(61) + ".com";
        assertThat(address).hasSize(254);
        return address;
    }

    /** Changes {@code from}'s address to {@code to} through the page and the mailed link. */
    void change(String from, String to) throws Exception {
        var web = new WebClient(port);
        web.login(from, "correct-password-123");
        HttpResponse<String> asked = web.postForm("/cuenta/correo", Map.of("correo", to, "contrasena",
                "correct-password-123", "_csrf", web.csrfFrom("/cuenta/")));
        assertThat(WebClient.location(asked)).isEqualTo("/cuenta/?correo=enviado");
        String link = MailFiles.link(MailFiles.newest(to, "Confirma tu nueva dirección de correo"), LINK);
        var anywhere = new WebClient(port);
        HttpResponse<String> page = anywhere.get("/cuenta/correo/confirmar?token=" + link);
        HttpResponse<String> confirmed = anywhere.postForm("/cuenta/correo/confirmar", Map.of("token", link,
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(200);
        assertThat(confirmed.body()).contains("id=\"email-changed\"");
    }

    @Test
    void aPasskeyUserIsRegisteredUnderAnAddressOf254Characters() {
        // what Spring Security's registration does for an account with such an address (migration V31)
        String longest = longest("registro");
        Bytes id = Bytes.random();
        passkeyUsers.save(ImmutablePublicKeyCredentialUserEntity.builder().id(id).name(longest).displayName(longest).build());
        assertThat(passkeyUsers.findByUsername(longest)).isNotNull().satisfies(entity -> {
            assertThat(entity.getId()).isEqualTo(id);
            assertThat(entity.getName()).isEqualTo(longest);
            assertThat(entity.getDisplayName()).isEqualTo(longest);
        });
    }

    @Test
    void aPasskeyUserFollowsAnAddressOf254CharactersAndBack() throws Exception {
        String old = "llave-" + UUID.randomUUID() + "@example.com";
        String longest = longest("larga");
        accounts.create("Larga", old, "correct-password-123", Role.USER);
        Bytes passkeyUser = Bytes.random();
        passkeyUsers.save(ImmutablePublicKeyCredentialUserEntity.builder().id(passkeyUser).name(old).displayName(old).build());

        change(old, longest);
        assertThat(passkeyUsers.findByUsername(longest)).isNotNull()
                .satisfies(entity -> assertThat(entity.getId()).isEqualTo(passkeyUser));
        assertThat(WebClient.location(new WebClient(port).login(longest, "correct-password-123"))).doesNotContain("error");
        change(longest, old);
        assertThat(passkeyUsers.findByUsername(old)).isNotNull()
                .satisfies(entity -> assertThat(entity.getId()).isEqualTo(passkeyUser));
    }

    @Test
    void anAccountAsksThreeTimesAnHourThenIsRefusedInSpanish() throws Exception {
        String mine = "prisa-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Prisa", mine, "correct-password-123", Role.USER).getId();
        var web = new WebClient(port);
        web.login(mine, "correct-password-123");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> asked = web.postForm("/cuenta/correo", Map.of("correo", "destino-" + i + "-" + mine,
                    "contrasena", "correct-password-123", "_csrf", web.csrfFrom("/cuenta/")));
            assertThat(WebClient.location(asked)).isEqualTo("/cuenta/?correo=enviado");
        }
        String fourth = "destino-3-" + mine;
        HttpResponse<String> refused = web.postForm("/cuenta/correo", Map.of("correo", fourth,
                "contrasena", "correct-password-123", "_csrf", web.csrfFrom("/cuenta/")));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
                v -> assertThat(Long.parseLong(v)).isBetween(3000L, 3600L));
        assertThat(refused.body()).contains("<p class=\"field-error\" id=\"email-error\">Demasiadas solicitudes de cambio "
                + "de correo. Vuelve a intentarlo dentro de 60 minutos.</p>").contains("value=\"" + fourth + "\"");
        assertThat(jdbc.queryForObject("select count(*) from email_changes where user_id = ?", Integer.class, id)).isEqualTo(3);
        assertThat(jdbc.queryForObject("select count(*) from email_changes where new_correo = ?", Integer.class, fourth)).isZero();
        // the budget is the account's, whatever session asks
        var other = new WebClient(port);
        other.login(mine, "correct-password-123");
        assertThat(other.postForm("/cuenta/correo", Map.of("correo", "destino-5-" + mine, "contrasena",
                "correct-password-123", "_csrf", other.csrfFrom("/cuenta/"))).statusCode()).isEqualTo(429);
        // an hour later it is free again
        jdbc.update("update email_changes set created_at = created_at - interval '1' hour where user_id = ?", id);
        assertThat(WebClient.location(web.postForm("/cuenta/correo", Map.of("correo", fourth, "contrasena",
                "correct-password-123", "_csrf", web.csrfFrom("/cuenta/"))))).isEqualTo("/cuenta/?correo=enviado");
    }

    @Test
    void anAddressIsSentThreeLinksAnHourWhicheverAccountsAsk() throws Exception {
        String target = "buzon-" + UUID.randomUUID() + "@example.com";
        for (int i = 0; i < 4; i++) {
            String mine = "vecino-" + i + "-" + UUID.randomUUID() + "@example.com";
            accounts.create("Vecino", mine, "correct-password-123", Role.USER);
            var web = new WebClient(port);
            web.login(mine, "correct-password-123");
            HttpResponse<String> asked = web.postForm("/cuenta/correo", Map.of("correo", target, "contrasena",
                    "correct-password-123", "_csrf", web.csrfFrom("/cuenta/")));
            if (i < 3) {
                assertThat(WebClient.location(asked)).isEqualTo("/cuenta/?correo=enviado");
            }
            else {
                assertThat(asked.statusCode()).isEqualTo(429);
                assertThat(asked.body()).contains("Demasiadas solicitudes de cambio de correo. Vuelve a intentarlo "
                        + "dentro de 60 minutos.");
            }
        }
        assertThat(jdbc.queryForObject("select count(*) from email_changes where new_correo = ?", Integer.class, target))
                .isEqualTo(3);
    }
}
