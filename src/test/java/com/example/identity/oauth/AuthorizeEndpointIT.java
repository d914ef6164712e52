package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.support.WebClient;

/** {@code /oauth/authorize.php} per decisions §2. */
class AuthorizeEndpointIT extends OAuthTestBase {

    static void assertErrorPage(HttpResponse<String> response, String message) {
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Location")).isEmpty();
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(response.body()).contains("<html lang=\"es\">")
                .contains("<code id=\"oauth-error\">" + message + "</code>");
    }

    @Test
    void unknownClientGetsErrorPageWithoutRedirect() {
        var web = loggedInDeveloper();
        var response = web.get("/oauth/authorize.php?response_type=code&client_id=nope&redirect_uri="
                + "https%3A%2F%2Fevil.example%2Fcb&state=s");
        assertErrorPage(response, "client_id inválido");
    }

    @Test
    void missingClientGetsErrorPage() {
        assertErrorPage(loggedInDeveloper().get("/oauth/authorize.php?response_type=code&redirect_uri=https%3A%2F%2Fx"),
                "client_id inválido");
    }

    @Test
    void unknownClientGetsErrorPageEvenWithoutSession() {
        var response = new WebClient(ISSUER).get("/oauth/authorize.php?response_type=code&client_id=nope&redirect_uri="
                + "https%3A%2F%2Fevil.example%2Fcb");
        assertErrorPage(response, "client_id inválido");
    }

    @ParameterizedTest
    @ValueSource(strings = { "https://evil.example/cb", "", "SAME/", "SAME?x=1", "SAME#f" })
    void redirectUriOtherThanRegisteredGetsErrorPage(String redirectUri) {
        var client = newClient();
        String value = redirectUri.replace("SAME", client.redirectUri());
        String url = UriComponentsBuilder.fromPath("/oauth/authorize.php").queryParam("response_type", "code")
                .queryParam("client_id", client.clientId()).queryParam("redirect_uri", value).queryParam("state", "s")
                .encode().build().toUriString();
        assertErrorPage(loggedInDeveloper().get(url), "redirect_uri no coincide con el registrado");
    }

    @Test
    void missingRedirectUriGetsErrorPage() {
        var client = newClient();
        assertErrorPage(loggedInDeveloper().get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()),
                "redirect_uri no coincide con el registrado");
    }

    @Test
    void revokedClientGetsErrorPage() {
        var client = newClient();
        clients.revoke(client.clientId());
        assertErrorPage(loggedInDeveloper().get(authorizeUrl(client, "openid", Map.of("state", "s"))), "client_revoked");
    }

    @Test
    void visitorWithoutSessionGoesToLoginWithTheWayBack() {
        var client = newClient();
        String url = authorizeUrl(client, "openid email", Map.of("state", "xyz", "nonce", "n-1"));

        var response = new WebClient(ISSUER).get(url);

        assertThat(response.statusCode()).isEqualTo(302);
        String location = WebClient.location(response);
        assertThat(location).startsWith("/login/?redirect=");
        String back = UriComponentsBuilder.fromUriString(location).build().getQueryParams().getFirst("redirect");
        assertThat(java.net.URLDecoder.decode(back, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(url);
    }

    @Test
    void loginThenBackToTheAuthorizationRequestThenCode() {
        var client = newClient();
        String url = authorizeUrl(client, "openid", Map.of("state", "abc"));
        var web = new WebClient(ISSUER);
        String back = java.net.URLDecoder.decode(UriComponentsBuilder.fromUriString(WebClient.location(web.get(url)))
                .build().getQueryParams().getFirst("redirect"), java.nio.charset.StandardCharsets.UTF_8);

        var login = web.login("dev@example.com", "dev-demo-password", back);
        assertThat(WebClient.location(login)).isEqualTo(url);

        var response = web.get(WebClient.location(login));
        assertThat(response.statusCode()).isEqualTo(302);
        var params = UriComponentsBuilder.fromUriString(WebClient.location(response)).build().getQueryParams();
        assertThat(WebClient.location(response)).startsWith(client.redirectUri() + "?code=");
        assertThat(params.getFirst("code")).matches("[A-Za-z0-9_-]{43,}");
        assertThat(params.getFirst("state")).isEqualTo("abc");
    }

    @Test
    void stateIsReturnedUnchangedEvenWithSpecialCharacters() {
        var client = newClient();
        String state = "a b+c/d=é&x";
        var response = loggedInDeveloper().get(authorizeUrl(client, "openid", Map.of("state", state)));

        assertThat(response.statusCode()).isEqualTo(302);
        var params = UriComponentsBuilder.fromUriString(WebClient.location(response)).build().getQueryParams();
        assertThat(java.net.URLDecoder.decode(params.getFirst("state"), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(state);
    }

    @Test
    void unsupportedResponseTypeRedirectsWithErrorAndState() {
        var client = newClient();
        String url = authorizeUrl(client, "openid", Map.of("state", "s1")).replace("response_type=code", "response_type=token");

        var response = loggedInDeveloper().get(url);

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo(client.redirectUri() + "?error=unsupported_response_type&state=s1");
    }

    @Test
    void missingResponseTypeRedirectsWithInvalidRequest() {
        var client = newClient();
        String url = authorizeUrl(client, "openid", Map.of("state", "s2")).replace("response_type=code&", "");

        var response = loggedInDeveloper().get(url);

        assertThat(WebClient.location(response)).isEqualTo(client.redirectUri() + "?error=invalid_request&state=s2");
    }

    @Test
    void unknownScopeRedirectsWithInvalidScope() {
        var client = newClient();
        var response = loggedInDeveloper().get(authorizeUrl(client, "openid admin", Map.of("state", "s3")));

        assertThat(WebClient.location(response)).isEqualTo(client.redirectUri() + "?error=invalid_scope&state=s3");
    }

    @Test
    void plainPkceIsRefused() {
        var client = newClient();
        var response = loggedInDeveloper().get(authorizeUrl(client, "openid",
                Map.of("state", "s4", "code_challenge", "abcdefghijabcdefghijabcdefghijabcdefghij123", "code_challenge_method", "plain")));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo(client.redirectUri() + "?error=invalid_request&state=s4");
    }

    @Test
    void pkceS256IsHonouredAndCannotBeDowngraded() {
        var client = newClient();
        String verifier = "verifier-" + "x".repeat(50);
        String challenge = AuthorizationCodeExchange.s256(verifier);
        var web = loggedInDeveloper();

        String code = authorize(web, client, "openid",
                Map.of("code_challenge", challenge, "code_challenge_method", "S256"));
        TokenEndpointIT.assertError(exchange(client, code), 400, "code_verifier inválido");
        var wrong = exchangeForm(client, code);
        wrong.put("code_verifier", verifier + "x");
        TokenEndpointIT.assertError(new WebClient(ISSUER).postForm("/oauth/token.php", wrong), 400, "code_verifier inválido");
        var right = exchangeForm(client, code);
        right.put("code_verifier", verifier);
        assertThat(new WebClient(ISSUER).postForm("/oauth/token.php", right).statusCode()).isEqualTo(200);

        String plainCode = authorize(web, client, "openid");
        var downgrade = exchangeForm(client, plainCode);
        downgrade.put("code_verifier", verifier);
        TokenEndpointIT.assertError(new WebClient(ISSUER).postForm("/oauth/token.php", downgrade), 400,
                "code_verifier inválido");
    }

    @Test
    void codeChallengeWithoutAMethodIsRefusedRatherThanTakenAsPlain() {
        var client = newClient();
        var response = loggedInDeveloper().get(authorizeUrl(client, "openid",
                Map.of("state", "s8", "code_challenge", AuthorizationCodeExchange.s256("v".repeat(43)))));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo(client.redirectUri() + "?error=invalid_request&state=s8");
    }

    @ParameterizedTest
    @ValueSource(ints = { 42, 129, 5000 })
    void verifierOutsideTheSyntaxOfRfc7636IsRefusedEvenWhenItsDigestMatches(int length) {
        var client = newClient();
        String verifier = "v".repeat(length);
        String code = authorize(loggedInDeveloper(), client, "openid",
                Map.of("code_challenge", AuthorizationCodeExchange.s256(verifier), "code_challenge_method", "S256"));
        var form = exchangeForm(client, code);
        form.put("code_verifier", verifier);

        TokenEndpointIT.assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "code_verifier inválido");
    }

    @Test
    void verifierWithCharactersOutsideTheUnreservedSetIsRefused() {
        var client = newClient();
        String verifier = "spaces and: colons " + "v".repeat(40);
        String code = authorize(loggedInDeveloper(), client, "openid",
                Map.of("code_challenge", AuthorizationCodeExchange.s256(verifier), "code_challenge_method", "S256"));
        var form = exchangeForm(client, code);
        form.put("code_verifier", verifier);

        TokenEndpointIT.assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "code_verifier inválido");
    }

    @Test
    void codesAreSingleUseAndDifferent() {
        var client = newClient();
        var web = loggedInDeveloper();
        java.util.Set<String> codes = new java.util.HashSet<>();
        for (int i = 0; i < 5; i++) {
            String code = authorize(web, client, "openid");
            assertThat(code).as("URL-safe, at least 256 bits").matches("[A-Za-z0-9_-]{43,}");
            codes.add(code);
        }
        assertThat(codes).as("every authorization gets a code of its own").hasSize(5);
        for (String code : codes) {
            assertThat(exchange(client, code).statusCode()).as("first use").isEqualTo(200);
            var second = exchange(client, code);
            assertThat(second.statusCode()).as("second use").isEqualTo(400);
            assertThat(json(second).get("error").asString()).isEqualTo("Código ya utilizado");
        }
    }

    @Test
    void codeIsStoredOnlyAsDigest() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");

        Integer plain = jdbc.queryForObject("select count(*) from oauth_authorizations where code_digest = ?",
                Integer.class, code);
        Integer digest = jdbc.queryForObject("select count(*) from oauth_authorizations where code_digest = ?",
                Integer.class, com.example.identity.crypto.Secrets.sha256Hex(code));
        assertThat(plain).isZero();
        assertThat(digest).isOne();
    }

    @ParameterizedTest
    @ValueSource(strings = { "nonce", "code_challenge", "state" })
    void overlongParametersAreRefusedByRedirectNotByAServerError(String parameter) {
        var client = newClient();
        Map<String, String> extra = new java.util.LinkedHashMap<>();
        extra.put(parameter, "x".repeat(2000));
        if (parameter.equals("code_challenge")) {
            extra.put("code_challenge_method", "S256");
        }
        if (!parameter.equals("state")) {
            extra.put("state", "s5");
        }
        var response = loggedInDeveloper().get(authorizeUrl(client, "openid", extra));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).startsWith(client.redirectUri() + "?error=invalid_request");
    }

    @Test
    void malformedCodeChallengeIsRefused() {
        var client = newClient();
        var response = loggedInDeveloper().get(authorizeUrl(client, "openid",
                Map.of("state", "s6", "code_challenge", "short", "code_challenge_method", "S256")));

        assertThat(WebClient.location(response)).isEqualTo(client.redirectUri() + "?error=invalid_request&state=s6");
    }

    @Test
    void codeRedirectIs302NeverA307() {
        // RFC 9700 §4.12: a 307 after the login POST would make the browser re-send the password to
        // wherever it goes next. Every redirect that carries a code or a password's result is a 302.
        var client = newClient();
        String url = authorizeUrl(client, "openid", Map.of("state", "s7"));
        String email = "r-" + java.util.UUID.randomUUID() + "@example.com";
        accounts.create("Rita", email, "correct-password-123", com.example.identity.account.Role.USER);
        var browser = new WebClient(ISSUER);

        var toLogin = browser.get(url);
        assertThat(toLogin.statusCode()).isEqualTo(302);
        var login = browser.login(email, "correct-password-123", url);
        assertThat(login.statusCode()).as("the password POST").isEqualTo(302);
        assertThat(WebClient.location(login)).as("back to the authorization request").isEqualTo(url);

        var withCode = browser.get(WebClient.location(login));
        assertThat(withCode.statusCode()).as("the code redirect").isEqualTo(302);
        assertThat(WebClient.location(withCode)).startsWith(client.redirectUri() + "?code=").contains("&state=s7");

        var error = browser.get(authorizeUrl(client, "nope", Map.of("state", "s8")));
        assertThat(error.statusCode()).as("an error redirect").isEqualTo(302);
        assertThat(WebClient.location(error)).startsWith(client.redirectUri() + "?error=invalid_scope");
    }
}
