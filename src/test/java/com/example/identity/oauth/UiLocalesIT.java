package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;

/**
 * OpenID Connect's {@code ui_locales} (decisions §22): an authorization request asking for English is answered in
 * English from the login page to the consent page, the first supported language of the list winning, whatever
 * the browser's {@code Accept-Language}; the page's switch still changes it; and the code comes back as usual.
 */
class UiLocalesIT extends OAuthTestBase {

    @Test
    void uiLocalesEnLeadsThroughAnEnglishLoginToAnEnglishConsent() {
        ClientService.NewCredentials client = newThirdPartyClient();
        String email = "ui-" + UUID.randomUUID() + "@example.com";
        accounts.create("Uma", email, "correct-password-123", Role.USER);
        var browser = new WebClient(ISSUER);

        HttpResponse<String> toLogin = browser.get(authorizeUrl(client, "openid email",
                Map.of("state", "s", "ui_locales", "fr-CA en-US es")), "Accept-Language", "es");
        assertThat(toLogin.statusCode()).isEqualTo(302);
        HttpResponse<String> login = browser.get(localPart(WebClient.location(toLogin)), "Accept-Language", "es");
        assertThat(login.body()).contains("<html lang=\"en\">").contains("<h1>Log in</h1>")
                .contains("<button type=\"submit\" class=\"primary\">Log in</button>").contains(">Español</a>");

        String back = org.springframework.web.util.UriComponentsBuilder.fromUriString(WebClient.location(toLogin)).build()
                .getQueryParams().getFirst("redirect");
        HttpResponse<String> loggedIn = browser.login(email, "correct-password-123",
                org.springframework.web.util.UriUtils.decode(back, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(loggedIn.statusCode()).as(loggedIn.body()).isEqualTo(302);
        HttpResponse<String> toConsent = browser.get(localPart(WebClient.location(loggedIn)), "Accept-Language", "es");
        String consent = ConsentIT.consentPageOf(toConsent);
        HttpResponse<String> page = browser.get(consent, "Accept-Language", "es");
        assertThat(page.body()).contains("<html lang=\"en\">")
                .contains("<span id=\"consent-client\">Test app</span> wants to access your account")
                .contains("<li data-scope=\"email\">Your e-mail address</li>")
                .contains("id=\"consent-allow\">Allow</button>").contains("id=\"consent-deny\">Don&#39;t allow</button>");

        // the switch on the page outranks the application's wish from then on
        assertThat(browser.get(consent + "&lang=es").body()).contains("<html lang=\"es\">")
                .contains("quiere acceder a tu cuenta");
        assertThat(browser.get(consent).body()).contains("quiere acceder a tu cuenta");

        HttpResponse<String> approved = browser.postForm("/oauth/consent", Map.of("request", ConsentIT.requestOf(consent),
                "decision", "allow", "_csrf", WebClient.csrfOf(page.body())));
        ConsentIT.assertCode(browser.get(WebClient.location(approved)), client);
    }

    @Test
    void aListWithoutASupportedLanguageChangesNothing() {
        ClientService.NewCredentials client = newThirdPartyClient();
        var browser = new WebClient(ISSUER);
        HttpResponse<String> toLogin = browser.get(authorizeUrl(client, "openid", Map.of("state", "s", "ui_locales", "fr de")));
        assertThat(browser.get(localPart(WebClient.location(toLogin))).body()).contains("<h1>Iniciar sesión</h1>");
    }

    /** The authorization endpoint's own error page follows the language too; the error it quotes does not. */
    @Test
    void theAuthorizationErrorPageIsInThePagesLanguage() {
        HttpResponse<String> english = new WebClient(ISSUER).get("/oauth/authorize.php?response_type=code&client_id=nadie",
                "Accept-Language", "en");
        HttpResponse<String> spanish = new WebClient(ISSUER).get("/oauth/authorize.php?response_type=code&client_id=nadie");
        assertThat(english.statusCode()).isEqualTo(400);
        String code = spanish.body().replaceAll("(?s).*<code id=\"oauth-error\">([^<]*)</code>.*", "$1");
        assertThat(spanish.body()).contains("<h1>Solicitud de autorización no válida</h1>");
        assertThat(english.body()).contains("<html lang=\"en\">").contains("<h1>Invalid authorization request</h1>")
                .contains("<code id=\"oauth-error\">" + code + "</code>").contains(">Español</a>");
    }
}
