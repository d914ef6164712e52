package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MailFiles;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code email_verified} (decisions §18) in the id_token and at {@code /oauth/userinfo.php}: {@code false} for
 * an account an admin made, {@code true} once the person proved the address; a token issued before says so at
 * once (its cached owner is looked up again). A completed recovery proves the address.
 */
@IntegrationTest
class EmailVerifiedClaimIT {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    record Person(long id, String email, WebClient browser) {
    }

    Person adminMadeAccount() {
        String email = "v-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Vera", email, "correct-password-123", Role.USER).getId();
        var web = new WebClient(port);
        assertThat(web.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        return new Person(id, email, web);
    }

    ClientService.NewCredentials firstPartyClient() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Verified app", "https://app.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), client.clientId(), true);
        return client;
    }

    /** The token answer of a code flow with scope {@code openid email} in the person's session. */
    JsonNode tokens(Person person, ClientService.NewCredentials client) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", "openid email");
        query.put("state", "st");
        HttpResponse<String> authorize = person.browser().get("/oauth/authorize.php?" + WebClient.encode(query));
        assertThat(authorize.statusCode()).as(authorize.body()).isEqualTo(302);
        String code = UriComponentsBuilder.fromUriString(WebClient.location(authorize)).build().getQueryParams()
                .getFirst("code");
        HttpResponse<String> token = new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(client, code));
        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        return JSON.readTree(token.body());
    }

    static JsonNode idTokenClaims(JsonNode tokens) {
        String payload = tokens.get("id_token").asString().split("\\.")[1];
        return JSON.readTree(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
    }

    HttpResponse<String> userInfo(String accessToken) {
        return new WebClient(port).get("/oauth/userinfo.php", "Authorization", "Bearer " + accessToken);
    }

    @Test
    void anAdminMadeAccountIsUnverifiedUntilItProvesTheAddressThenBothClaimsSayTrue() {
        Person person = adminMadeAccount();
        var client = firstPartyClient();

        JsonNode before = tokens(person, client);
        assertThat(idTokenClaims(before).get("email_verified").asBoolean()).isFalse();
        assertThat(idTokenClaims(before).get("email_verified").isBoolean()).isTrue();
        String earlierToken = before.get("access_token").asString();
        HttpResponse<String> unverified = userInfo(earlierToken);
        assertThat(unverified.statusCode()).isEqualTo(200);
        assertThat(unverified.body()).isEqualTo("{\"sub\":\"user:" + person.id() + "\",\"email\":\"" + person.email()
                + "\",\"email_verified\":false}");

        assertThat(accounts.markEmailVerified(person.id())).isTrue();
        assertThat(accounts.markEmailVerified(person.id())).as("already proved").isFalse();

        // the token issued before: its cached owner was looked up again
        assertThat(userInfo(earlierToken).body()).isEqualTo("{\"sub\":\"user:" + person.id() + "\",\"email\":\""
                + person.email() + "\",\"email_verified\":true}");
        JsonNode after = tokens(person, client);
        assertThat(idTokenClaims(after).get("email_verified").asBoolean()).isTrue();
        assertThat(idTokenClaims(after).get("sub").asString()).isEqualTo("user:" + person.id());
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'EMAIL_VERIFIED' and subject = ?",
                Long.class, "usuario #" + person.id() + " " + person.email())).isEqualTo(1);
    }

    @Test
    void aCompletedRecoveryProvesTheAddress() throws Exception {
        Person person = adminMadeAccount();
        assertThat(verified(person.id())).isFalse();
        var web = new WebClient(port);
        HttpResponse<String> asked = web.postForm("/login/recuperar", Map.of("correo", person.email(), "_csrf",
                web.csrfFrom("/login/recuperar")));
        assertThat(asked.statusCode()).isEqualTo(200);
        String token = MailFiles.link(MailFiles.newest(person.email(), "Restablece tu contraseña"),
                Pattern.compile("/login/restablecer\\?token=([A-Za-z0-9_-]{43})"));
        HttpResponse<String> reset = web.postForm("/login/restablecer", Map.of("token", token, "nueva",
                "a-brand-new-password", "repetida", "a-brand-new-password", "_csrf", web.csrfFrom(
                        "/login/restablecer?token=" + token)));
        assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);

        assertThat(verified(person.id())).isTrue();
    }

    @Test
    void aConfirmedEmailChangeProvesTheNewAddress() throws Exception {
        Person person = adminMadeAccount();
        String next = "nuevo-" + UUID.randomUUID() + "@example.com";
        HttpResponse<String> page = person.browser().get("/cuenta/");
        HttpResponse<String> asked = person.browser().postForm("/cuenta/correo", Map.of("correo", next,
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(page.body())));
        assertThat(asked.statusCode()).as(asked.body()).isIn(200, 302);
        String token = MailFiles.link(MailFiles.newest(next, "Confirma tu nueva dirección de correo"),
                Pattern.compile("token=([A-Za-z0-9_-]{43})"));
        assertThat(verified(person.id())).isFalse();
        var confirm = new WebClient(port);
        HttpResponse<String> form = confirm.get("/cuenta/correo/confirmar?token=" + token);
        assertThat(form.statusCode()).as(form.body()).isEqualTo(200);
        HttpResponse<String> done = confirm.postForm("/cuenta/correo/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(form.body())));
        assertThat(done.statusCode()).as(done.body()).isIn(200, 302);

        assertThat(verified(person.id())).isTrue();
    }

    boolean verified(long id) {
        return jdbc.queryForObject("select email_verified from users where id = ?", Boolean.class, id);
    }
}
