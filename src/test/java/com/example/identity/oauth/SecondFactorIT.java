package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.nimbusds.jwt.JWTParser;
import org.junit.jupiter.api.Test;

import com.example.identity.account.Role;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.MailFiles;
import com.example.identity.support.WebClient;

/**
 * The second factor over HTTP (decisions §17): TOTP set up at {@code /cuenta/seguridad}, the login's second
 * step (a session with only the password is not logged in anywhere), replay, recovery codes, the
 * throttle, turning it off with the password, and the id_token's {@code amr}. The authenticator app is
 * {@link TotpCodes}, RFC 6238 over the secret the page shows.
 */
class SecondFactorIT extends OAuthTestBase {

    static final Pattern SECRET = Pattern.compile("id=\"totp-secret\">([A-Z2-7]{32})<");
    static final Pattern CODES = Pattern.compile("[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}");

    record Enrolled(String email, String secret, List<String> recoveryCodes) {
    }

    /** A new account that sets TOTP up in its session; the session stays logged in. */
    Enrolled enrolled(WebClient web) {
        String email = "mfa-" + UUID.randomUUID() + "@example.com";
        accounts.create("Marta", email, "correct-password-123", Role.USER);
        assertThat(web.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        HttpResponse<String> page = web.get("/cuenta/seguridad/totp");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<svg xmlns=\"http://www.w3.org/2000/svg\"");
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).isTrue();
        String secret = m.group(1);
        HttpResponse<String> wrong = web.postForm("/cuenta/seguridad/totp", Map.of("codigo", "000000",
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(page.body())));
        assertThat(wrong.statusCode()).isEqualTo(wrong.body().contains(TotpCodes.now(secret, 0)) ? 200 : 400);
        HttpResponse<String> done = web.postForm("/cuenta/seguridad/totp", Map.of("codigo", TotpCodes.now(secret, 0),
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(wrong.body())));
        assertThat(done.statusCode()).isEqualTo(200);
        List<String> codes = recoveryCodes(done.body());
        assertThat(codes).hasSize(10);
        return new Enrolled(email, secret, codes);
    }

    /**
     * The codes of the recovery codes' page, read in their own block only: the page's header shows the
     * account's address, whose UUID may look like a code.
     */
    static List<String> recoveryCodes(String page) {
        Matcher block = Pattern.compile("<code id=\"recovery-codes\">([^<]*)</code>").matcher(page);
        assertThat(block.find()).as(page).isTrue();
        return CODES.matcher(block.group(1)).results().map(r -> r.group()).distinct().toList();
    }

    /** A password login in a new browser: where it is sent. */
    static String passwordLogin(WebClient web, String email, String redirect) {
        return WebClient.location(web.login(email, "correct-password-123", redirect));
    }

    static HttpResponse<String> secondStep(WebClient web, String code) {
        return web.postForm("/login/segundo-paso", Map.of("codigo", code, "_csrf", web.csrfFrom("/login/segundo-paso")));
    }

    @Test
    void withTotpAPasswordAloneLogsInNowhereAndTheCodeCompletesTheLogin() throws Exception {
        var first = new WebClient(ISSUER);
        var other = new WebClient(ISSUER);
        Enrolled account = enrolledWithOtherSession(first, other);
        assertThat(other.get("/cuenta/").statusCode()).as("setting TOTP up ends the other sessions").isEqualTo(302);
        assertThat(MailFiles.text(MailFiles.newest(account.email(), "Se ha añadido un segundo factor a tu cuenta")))
                .contains("Se ha añadido una aplicación de autenticación a tu cuenta " + account.email());
        assertThat(first.get("/cuenta/seguridad").body()).contains("Te quedan <strong id=\"recovery-left\">10</strong>");

        var web = new WebClient(ISSUER);
        assertThat(passwordLogin(web, account.email(), null)).isEqualTo("/login/segundo-paso");
        // the session is not logged in: pages, the API and the authorization endpoint all send it to the login
        assertThat(web.get("/cuenta/").statusCode()).isEqualTo(302);
        assertThat(WebClient.location(web.get("/cuenta/"))).startsWith("/login/");
        assertThat(web.postForm("/api/tokens/create.php", Map.of("name", "x")).statusCode()).isIn(401, 403);
        HttpResponse<String> page = web.get("/login/segundo-paso");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains(account.email()).contains("name=\"codigo\"");

        HttpResponse<String> wrong = secondStep(web, "123456".equals(TotpCodes.now(account.secret(), 1)) ? "654321" : "123456");
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(wrong.body()).contains("Código incorrecto.");
        // the code used to set it up (this 30-second step) is spent: the next step's code is accepted
        String next = TotpCodes.now(account.secret(), 1);
        HttpResponse<String> ok = secondStep(web, next);
        assertThat(ok.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(ok)).isEqualTo("/");
        assertThat(web.get("/cuenta/").statusCode()).isEqualTo(200);

        // the same code again, in another login: a replay (the very code, even if a 30-second step has passed)
        var replay = new WebClient(ISSUER);
        passwordLogin(replay, account.email(), null);
        assertThat(secondStep(replay, next).statusCode()).isEqualTo(400);
    }

    /** {@link #enrolled} with a second session of the same account opened before. */
    Enrolled enrolledWithOtherSession(WebClient web, WebClient other) {
        String email = "mfa-" + UUID.randomUUID() + "@example.com";
        accounts.create("Marta", email, "correct-password-123", Role.USER);
        assertThat(other.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        assertThat(web.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        HttpResponse<String> page = web.get("/cuenta/seguridad/totp");
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).isTrue();
        HttpResponse<String> done = web.postForm("/cuenta/seguridad/totp", Map.of("codigo", TotpCodes.now(m.group(1), 0),
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(page.body())));
        assertThat(done.statusCode()).isEqualTo(200);
        return new Enrolled(email, m.group(1), recoveryCodes(done.body()));
    }

    @Test
    void aRecoveryCodeWorksOnceAndTheIdTokenSaysHowTheUserLoggedIn() throws Exception {
        Enrolled account = enrolled(new WebClient(ISSUER));
        var client = newClient();
        String authorize = authorizeUrl(client, "openid", Map.of("state", "s", "nonce", "n"));

        var web = new WebClient(ISSUER);
        HttpResponse<String> start = web.get(authorize);
        assertThat(WebClient.location(start)).startsWith("/login/?redirect=");
        String redirect = org.springframework.web.util.UriComponentsBuilder.fromUriString(WebClient.location(start))
                .build().getQueryParams().getFirst("redirect");
        String afterPassword = passwordLogin(web, account.email(),
                org.springframework.web.util.UriUtils.decode(redirect, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(afterPassword).isEqualTo("/login/segundo-paso");
        // typed with capitals and without dashes, as people do
        HttpResponse<String> ok = secondStep(web, account.recoveryCodes().get(0).replace("-", "").toUpperCase());
        assertThat(ok.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(ok)).startsWith("/oauth/authorize.php?");
        HttpResponse<String> code = web.get(WebClient.location(ok));
        String location = WebClient.location(code);
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        String value = org.springframework.web.util.UriComponentsBuilder.fromUriString(location).build().getQueryParams()
                .getFirst("code");
        HttpResponse<String> tokens = exchange(client, value);
        assertThat(tokens.statusCode()).isEqualTo(200);
        var claims = JWTParser.parse(json(tokens).get("id_token").asString()).getJWTClaimsSet();
        assertThat(claims.getStringListClaim("amr")).containsExactly("pwd", "otp", "mfa");

        var again = new WebClient(ISSUER);
        passwordLogin(again, account.email(), null);
        assertThat(secondStep(again, account.recoveryCodes().get(0)).statusCode()).as("spent").isEqualTo(400);
        assertThat(secondStep(again, account.recoveryCodes().get(1)).statusCode()).isEqualTo(302);
    }

    @Test
    void fiveWrongCodesSendTheUserBackToThePassword() {
        Enrolled account = enrolled(new WebClient(ISSUER));
        var web = new WebClient(ISSUER);
        passwordLogin(web, account.email(), null);
        String right = TotpCodes.now(account.secret(), 1);
        String wrong = right.equals("111111") ? "222222" : "111111";
        for (int i = 0; i < 4; i++) {
            assertThat(secondStep(web, wrong).statusCode()).isEqualTo(400);
        }
        HttpResponse<String> fifth = secondStep(web, wrong);
        assertThat(fifth.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(fifth)).isEqualTo("/login/?error=1");
        assertThat(WebClient.location(web.get("/login/segundo-paso"))).isEqualTo("/login/");
        HttpResponse<String> late = web.postForm("/login/segundo-paso", Map.of("codigo", right,
                "_csrf", web.csrfFrom("/login/")));
        assertThat(WebClient.location(late)).isEqualTo("/login/");
        assertThat(web.get("/cuenta/").statusCode()).isEqualTo(302);
    }

    /**
     * A login waiting at its second step is a session of the account like any other: disabling the account (and
     * so a role change, a password reset) or "cerrar las demás sesiones" ends it on every instance, and the code
     * typed afterwards logs nobody in. And should the account change in a way that ends no session, the login
     * that completes reads it again: a disabled account is not logged in with what the password step captured.
     */
    @Test
    void aLoginWaitingForItsSecondStepEndsWithTheAccountsSessions() {
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();

        Enrolled disabled = enrolled(new WebClient(ISSUER));
        var waiting = new WebClient(ISSUER);
        assertThat(passwordLogin(waiting, disabled.email(), null)).isEqualTo("/login/segundo-paso");
        String csrf = waiting.csrfFrom("/login/segundo-paso");
        assertThat(administration.disable(new com.example.identity.account.Caller(admin, true),
                accounts.findByEmail(disabled.email()).orElseThrow().getId())).isTrue();
        assertThat(WebClient.location(waiting.get("/login/segundo-paso"))).as("the session ended").isEqualTo("/login/");
        HttpResponse<String> late = waiting.postForm("/login/segundo-paso", Map.of("codigo",
                TotpCodes.now(disabled.secret(), 1), "_csrf", csrf));
        assertThat(late.statusCode()).isIn(302, 403);
        assertThat(WebClient.location(waiting.get("/cuenta/"))).startsWith("/login/");

        var laptop = new WebClient(ISSUER);
        Enrolled ended = enrolled(laptop);
        var phone = new WebClient(ISSUER);
        assertThat(passwordLogin(phone, ended.email(), null)).isEqualTo("/login/segundo-paso");
        assertThat(laptop.get("/cuenta/seguridad").body()).contains("Te quedan");
        HttpResponse<String> others = laptop.postForm("/cuenta/seguridad/sesiones/cerrar-otras",
                Map.of("_csrf", laptop.csrfFrom("/cuenta/seguridad")));
        assertThat(WebClient.location(others)).isEqualTo("/cuenta/seguridad?cerradas=1");
        assertThat(WebClient.location(phone.get("/login/segundo-paso"))).as("the waiting login ended").isEqualTo("/login/");
        assertThat(laptop.get("/cuenta/").statusCode()).isEqualTo(200);

        Enrolled quiet = enrolled(new WebClient(ISSUER));
        var slow = new WebClient(ISSUER);
        assertThat(passwordLogin(slow, quiet.email(), null)).isEqualTo("/login/segundo-paso");
        // disabled behind the service's back (no event, no session ended): the completion must still refuse it
        jdbc.update("update users set enabled = false where correo = ?", quiet.email());
        HttpResponse<String> refused = secondStep(slow, TotpCodes.now(quiet.secret(), 1));
        assertThat(WebClient.location(refused)).isEqualTo("/login/?error=1");
        assertThat(WebClient.location(slow.get("/cuenta/"))).startsWith("/login/");
    }

    @Test
    void turningItOffNeedsThePassword() {
        var web = new WebClient(ISSUER);
        Enrolled account = enrolled(web);
        HttpResponse<String> wrong = web.postForm("/cuenta/seguridad/totp/desactivar", Map.of("contrasena", "nope",
                "_csrf", web.csrfFrom("/cuenta/seguridad")));
        assertThat(WebClient.location(wrong)).isEqualTo("/cuenta/seguridad?contrasena=mal");
        HttpResponse<String> off = web.postForm("/cuenta/seguridad/totp/desactivar",
                Map.of("contrasena", "correct-password-123", "_csrf", web.csrfFrom("/cuenta/seguridad")));
        assertThat(WebClient.location(off)).isEqualTo("/cuenta/seguridad?desactivada");
        assertThat(passwordLogin(new WebClient(ISSUER), account.email(), null)).isEqualTo("/");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event in ('MFA_ENABLED', 'MFA_DISABLED') "
                + "and subject = ?", Integer.class, "usuario #" + accounts.findByEmail(account.email()).orElseThrow().getId()))
                .isEqualTo(2);
    }

    /**
     * An application that demands a second factor ({@code acr_values=mfa}) of a session that has none: the
     * session sets one up on the way, but only with the account's password in the same form. A session alone (a
     * laptop left open, a stolen cookie) must not put its own authenticator on the account.
     */
    @Test
    void anApplicationThatDemandsMfaGetsItOnlyWithThePassword() throws Exception {
        String email = "acr-" + UUID.randomUUID() + "@example.com";
        accounts.create("Ana", email, "correct-password-123", Role.USER);
        var web = new WebClient(ISSUER);
        var phone = new WebClient(ISSUER);
        assertThat(phone.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        assertThat(web.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        var client = newClient();

        // prompt=none cannot ask for the second factor
        HttpResponse<String> silent = web.get(authorizeUrl(client, "openid", Map.of("state", "s", "acr_values", "mfa",
                "prompt", "none")));
        assertThat(WebClient.location(silent)).startsWith(client.redirectUri() + "?error=interaction_required");

        // the session has only a password: it sets a second factor up, then the request goes on
        String authorize = authorizeUrl(client, "openid", Map.of("state", "s", "nonce", "n", "acr_values", "mfa"));
        HttpResponse<String> demanded = web.get(authorize);
        assertThat(WebClient.location(demanded)).isEqualTo("/login/segundo-paso/alta");
        HttpResponse<String> page = web.get("/login/segundo-paso/alta");
        assertThat(page.body()).contains("id=\"totp-password\"");
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).isTrue();
        String secret = m.group(1);

        // the code alone, or with a wrong password, adds nothing
        HttpResponse<String> without = web.postForm("/login/segundo-paso/alta", Map.of("codigo",
                TotpCodes.now(secret, 0), "_csrf", WebClient.csrfOf(page.body())));
        assertThat(without.statusCode()).isEqualTo(400);
        assertThat(without.body()).contains("La contraseña no es correcta").contains("id=\"totp-secret\">" + secret + "<");
        HttpResponse<String> wrong = web.postForm("/login/segundo-paso/alta", Map.of("codigo", TotpCodes.now(secret, 0),
                "contrasena", "not-the-password", "_csrf", WebClient.csrfOf(without.body())));
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(wrong.body()).contains("La contraseña no es correcta");
        assertThat(jdbc.queryForObject("select count(*) from user_totp t join users u on u.id = t.user_id "
                + "where u.correo = ?", Integer.class, email)).isZero();
        assertThat(phone.get("/cuenta/").statusCode()).as("nothing added, nothing ended").isEqualTo(200);

        HttpResponse<String> codes = web.postForm("/login/segundo-paso/alta", Map.of("codigo", TotpCodes.now(secret, 0),
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(wrong.body())));
        assertThat(codes.statusCode()).isEqualTo(200);
        assertThat(codes.body()).contains("href=\"" + authorize.replace("&", "&amp;") + "\"");
        // a new way into the account: the other sessions end and the address is told
        assertThat(phone.get("/cuenta/").statusCode()).as("the other session ended").isEqualTo(302);
        var notice = MailFiles.newest(email, "Se ha añadido un segundo factor a tu cuenta");
        assertThat(MailFiles.text(notice)).contains("Se ha añadido una aplicación de autenticación a tu cuenta " + email)
                .contains("Las demás sesiones de tu cuenta se han cerrado.");
        HttpResponse<String> granted = web.get(authorize);
        String location = WebClient.location(granted);
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        String code = org.springframework.web.util.UriComponentsBuilder.fromUriString(location).build().getQueryParams()
                .getFirst("code");
        var claims = JWTParser.parse(json(exchange(client, code)).get("id_token").asString()).getJWTClaimsSet();
        assertThat(claims.getStringListClaim("amr")).containsExactly("pwd", "otp", "mfa");
        assertThat(claims.getStringClaim("acr")).isEqualTo("mfa");
        // and a session that has it is not asked again
        assertThat(WebClient.location(web.get(authorize))).startsWith(client.redirectUri() + "?code=");
    }

    @Test
    void settingUpOrReplacingTotpNeedsThePassword() {
        var web = new WebClient(ISSUER);
        Enrolled account = enrolled(web);
        HttpResponse<String> page = web.get("/cuenta/seguridad/totp");
        assertThat(page.body()).contains("id=\"totp-password\"");
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).isTrue();
        String replacement = m.group(1);
        // a session alone (a borrowed laptop, a stolen cookie) cannot swap the factor for one of its own
        HttpResponse<String> without = web.postForm("/cuenta/seguridad/totp", Map.of("codigo",
                TotpCodes.now(replacement, 0), "_csrf", WebClient.csrfOf(page.body())));
        assertThat(without.statusCode()).isEqualTo(400);
        assertThat(without.body()).contains("La contraseña no es correcta").contains("id=\"totp-secret\">" + replacement + "<");
        HttpResponse<String> wrong = web.postForm("/cuenta/seguridad/totp", Map.of("codigo",
                TotpCodes.now(replacement, 0), "contrasena", "not-the-password", "_csrf", WebClient.csrfOf(without.body())));
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(wrong.body()).contains("La contraseña no es correcta");
        // the old factor still stands: its recovery codes work
        var other = new WebClient(ISSUER);
        passwordLogin(other, account.email(), null);
        assertThat(secondStep(other, account.recoveryCodes().get(0)).statusCode()).isEqualTo(302);

        HttpResponse<String> replaced = web.postForm("/cuenta/seguridad/totp", Map.of("codigo",
                TotpCodes.now(replacement, 0), "contrasena", "correct-password-123", "_csrf",
                WebClient.csrfOf(wrong.body())));
        assertThat(replaced.statusCode()).isEqualTo(200);
        assertThat(recoveryCodes(replaced.body())).hasSize(10);
        var later = new WebClient(ISSUER);
        passwordLogin(later, account.email(), null);
        assertThat(secondStep(later, account.recoveryCodes().get(1)).statusCode()).as("the old codes ended")
                .isEqualTo(400);
        assertThat(secondStep(later, TotpCodes.now(replacement, 1)).statusCode()).isEqualTo(302);
    }

    /**
     * A fresh login ({@code prompt=login} or {@code max_age=0}) and a second factor ({@code acr_values=mfa})
     * asked for together: one password, the second factor set up, and the code, in a bounded number of steps.
     */
    @Test
    void aFreshLoginAndASecondFactorDemandedTogetherEndWithACodeAfterOneLogin() throws Exception {
        for (Map<String, String> fresh : List.of(Map.of("prompt", "login"), Map.of("max_age", "0"))) {
            String email = "fresh-" + UUID.randomUUID() + "@example.com";
            accounts.create("Fresca", email, "correct-password-123", Role.USER);
            var web = new WebClient(ISSUER);
            assertThat(web.login(email, "correct-password-123").statusCode()).isEqualTo(302);
            var client = newClient();
            Map<String, String> parameters = new java.util.HashMap<>(Map.of("state", "s", "nonce", "n", "acr_values", "mfa"));
            parameters.putAll(fresh);
            String authorize = authorizeUrl(client, "openid", parameters);

            int passwords = 0;
            String secret = null;
            int step = 0;
            String at = authorize;
            for (int i = 0; i < 10 && !at.startsWith(client.redirectUri()); i++) {
                if (at.startsWith("/login/?")) {
                    passwords++;
                    String redirect = org.springframework.web.util.UriComponentsBuilder.fromUriString(at).build()
                            .getQueryParams().getFirst("redirect");
                    at = passwordLogin(web, email, org.springframework.web.util.UriUtils.decode(redirect,
                            java.nio.charset.StandardCharsets.UTF_8));
                }
                else if (at.equals("/login/segundo-paso/alta")) {
                    HttpResponse<String> page = web.get(at);
                    Matcher m = SECRET.matcher(page.body());
                    assertThat(m.find()).isTrue();
                    secret = m.group(1);
                    HttpResponse<String> codes = web.postForm(at, Map.of("codigo", TotpCodes.now(secret, step++),
                            "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(page.body())));
                    assertThat(codes.statusCode()).isEqualTo(200);
                    Matcher next = Pattern.compile("href=\"([^\"]*)\" class=\"button primary\" id=\"recovery-continue\"")
                            .matcher(codes.body());
                    assertThat(next.find()).isTrue();
                    at = next.group(1).replace("&amp;", "&");
                }
                else if (at.equals("/login/segundo-paso")) {
                    at = WebClient.location(secondStep(web, TotpCodes.now(secret, step++)));
                }
                else {
                    HttpResponse<String> response = web.get(at);
                    assertThat(response.statusCode()).as(at).isEqualTo(302);
                    at = WebClient.location(response);
                }
            }
            assertThat(at).as(fresh.toString()).startsWith(client.redirectUri() + "?code=");
            assertThat(passwords).as("the password typed once for " + fresh).isEqualTo(1);
            String code = org.springframework.web.util.UriComponentsBuilder.fromUriString(at).build().getQueryParams()
                    .getFirst("code");
            var claims = JWTParser.parse(json(exchange(client, code)).get("id_token").asString()).getJWTClaimsSet();
            assertThat(claims.getStringListClaim("amr")).containsExactly("pwd", "otp", "mfa");
            assertThat(claims.getStringClaim("acr")).isEqualTo("mfa");
        }
    }

    static Instant now() {
        return Instant.now();
    }
}
