package com.example.identity.sanctions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.FirstParty;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

/** The people, applications and credentials the sanctions tests play with, over HTTP on one instance. */
final class Players {

    static final String PASSWORD = "sanction-password-1";

    private final int port;
    private final AccountService accounts;
    private final ClientService clients;
    private final ApiTokenService tokens;

    Players(int port, AccountService accounts, ClientService clients, ApiTokenService tokens) {
        this.port = port;
        this.accounts = accounts;
        this.clients = clients;
        this.tokens = tokens;
    }

    /** An account of {@code role}. */
    record Person(long id, String email) {
    }

    Person person(Role role, String name) {
        String email = "sancion-" + UUID.randomUUID() + "@example.com";
        return new Person(accounts.create(name, email, PASSWORD, role).getId(), email);
    }

    /** A new admin. */
    Person admin() {
        return person(Role.ADMIN, "Ada");
    }

    /** A browser logged in as {@code person}. */
    WebClient browser(Person person) {
        var web = new WebClient(port);
        assertThat(web.login(person.email(), PASSWORD).statusCode()).isEqualTo(302);
        return web;
    }

    String gestionToken(Person person) {
        return "Bearer " + tokens.createPersonal(person.id(), "cli", TokenScope.GESTION).value();
    }

    String perfilToken(Person person) {
        return "Bearer " + tokens.createPersonal(person.id(), "juego", TokenScope.PERFIL).value();
    }

    /** A first-party web application of {@code owner}. */
    ClientService.NewCredentials webApp(Person owner) {
        return FirstParty.register(clients, owner.id(), "Juego", "https://juego.example/cb/" + UUID.randomUUID());
    }

    /** A {@code servidor} application: its client id, and its own access token as an Authorization header. */
    record Server(String clientId, String bearer) {
    }

    /** A {@code servidor} application of {@code owner}, and its own access token (client credentials). */
    Server server(Person owner) {
        var server = clients.register(owner.id(), "Servidor", null, List.of(), ClientType.SERVER);
        var answer = new WebClient(port).postForm("/oauth/token.php", Map.of("grant_type", "client_credentials",
                "client_id", server.clientId(), "client_secret", server.clientSecret()));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return new Server(server.clientId(), "Bearer " + ApiAssertions.json(answer).get("access_token").asString());
    }

    /** An authorization code of {@code app} for the person logged in in {@code browser}. */
    String code(WebClient browser, ClientService.NewCredentials app) {
        var redirect = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code",
                "client_id", app.clientId(), "redirect_uri", app.redirectUri(), "scope", "openid", "state", "s")));
        assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(302);
        String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                .getFirst("code");
        assertThat(code).as(WebClient.location(redirect)).isNotNull();
        return code;
    }

    /** The code's exchange at the token endpoint. */
    java.net.http.HttpResponse<String> exchange(ClientService.NewCredentials app, String code) {
        return new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(app, code));
    }

    /** An access token of {@code app} for the person logged in in {@code browser}. */
    String accessToken(WebClient browser, ClientService.NewCredentials app) {
        var answer = exchange(app, code(browser, app));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return "Bearer " + ApiAssertions.json(answer).get("access_token").asString();
    }
}
