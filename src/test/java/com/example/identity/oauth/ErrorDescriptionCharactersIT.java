package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.SenderConstraints;
import com.example.identity.oauth.authorize.AuthorizeError;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
import com.example.identity.support.WebClient;

/**
 * Every error this service sends to a client's redirect URI with an {@code error_description}: the
 * description has only the characters RFC 6749 §4.1.2.1 allows ({@code %x20-21 / %x23-5B / %x5D-7E}),
 * once the query is decoded. One case per {@link AuthorizeError} (the switch below has to name each one),
 * and the consent page's denial.
 */
class ErrorDescriptionCharactersIT extends OAuthTestBase {

    static final Pattern RFC6749 = Pattern.compile("[\\x20-\\x21\\x23-\\x5B\\x5D-\\x7E]+");

    @Autowired
    SanctionService sanctions;

    @Autowired
    com.example.identity.common.CacheInvalidation invalidation;

    @ParameterizedTest
    @EnumSource(AuthorizeError.class)
    void everyAuthorizationErrorDescriptionIsOfRfc6749sCharacters(AuthorizeError error) {
        var client = newClient();
        String location = switch (error) {
            case LOGIN_REQUIRED -> refusal(new WebClient(ISSUER), client, Map.of("prompt", "none"));
            case INTERACTION_REQUIRED -> {
                String email = "cs-" + UUID.randomUUID() + "@example.com";
                String oneTime = administration.createWithTemporaryPassword("Tina", email, Role.USER).temporaryPassword();
                var browser = new WebClient(ISSUER);
                assertThat(browser.login(email, oneTime).statusCode()).isEqualTo(302);
                yield refusal(browser, client, Map.of("prompt", "none"));
            }
            case CONSENT_REQUIRED -> {
                var thirdParty = newThirdPartyClient();
                client = thirdParty;
                yield refusal(newLoggedInUser("Olaia").browser(), thirdParty, Map.of("prompt", "none"));
            }
            case REQUEST_NOT_SUPPORTED -> refusal(browser(), client, Map.of("request", "eyJhbGciOiJub25lIn0.e30."));
            case REQUEST_URI_NOT_SUPPORTED -> refusal(browser(), client,
                    Map.of("request_uri", "https://app.example/request/1"));
            // with openid, Spring Authorization Server refuses these two first, without a description
            // (decisions §2's shape, BasicOpAuthorizationRequestIT); the service's own check covers the rest
            case INVALID_PROMPT -> WebClient.location(browser().get(authorizeUrl(client, "email",
                    Map.of("state", "st", "prompt", "none login"))));
            case INVALID_MAX_AGE -> refusal(browser(), client, Map.of("max_age", "-1"));
            case INVALID_CLAIMS -> refusal(browser(), client, Map.of("claims", "{not json"));
            case INVALID_ID_TOKEN_HINT -> refusal(browser(), client, Map.of("id_token_hint", "not-an-id-token"));
            case PAR_REQUIRED -> {
                // an application that requires pushed requests (decisions §28), asked directly
                client = newClient(new SenderConstraints(true, false));
                yield refusal(browser(), client, Map.of());
            }
            case REPEATED_PARAMETER -> WebClient.location(browser().get(
                    authorizeUrl(client, "openid", Map.of("state", "st", "max_age", "60")) + "&max_age=60"));
            case UNMET_ACR -> refusal(new WebClient(ISSUER), client,
                    Map.of("claims", "{\"id_token\":{\"acr\":{\"essential\":true,\"values\":[\"urn:example:loa:4\"]}}}"));
            case OTHER_SUBJECT -> {
                // the session's user logs in again for a request about another user (ClaimsParameterIT)
                User user = newLoggedInUser("Greta");
                String authorize = authorizeUrl(client, "openid", Map.of("state", "st", "claims",
                        "{\"id_token\":{\"sub\":{\"value\":\"user:" + (user.id() + 100000) + "\"}}}"));
                assertThat(WebClient.location(user.browser().get(authorize))).startsWith("/login/?redirect=");
                user.browser().login(user.email(), "correct-password-123", authorize);
                yield WebClient.location(user.browser().get(authorize));
            }
            case SUSPENDED -> {
                // a sanction in this application (decisions §26), placed by an admin while the person is logged in
                User user = newLoggedInUser("Sancho");
                sanctions.place(Sanctioner.of(new Caller(accounts.findByEmail("admin@example.com").orElseThrow().getId(),
                        true)), user.id(), "Trampas", null, client.clientId());
                yield refusal(user.browser(), client, Map.of());
            }
            case AWAITING_PARENTAL_CONSENT -> {
                // a child's account whose parent has not answered yet (decisions §27), written directly
                User user = newLoggedInUser("Nico");
                jdbc.update("insert into birth_dates (user_id, fecha_nacimiento) values (?, ?)", user.id(),
                        java.sql.Date.valueOf(java.time.LocalDate.now().minusYears(12)));
                jdbc.update("insert into parental_consents (user_id, correo_tutor, estado, language, requested_at, expires_at) "
                        + "values (?, ?, 'pendiente', 'es', ?, ?)", user.id(), "tutor-" + UUID.randomUUID() + "@example.com",
                        java.sql.Timestamp.from(java.time.Instant.now()),
                        java.sql.Timestamp.from(java.time.Instant.now().plusSeconds(3600)));
                invalidation.evict("minors", Long.toString(user.id()));
                yield refusal(user.browser(), client, Map.of());
            }
        };

        MultiValueMap<String, String> query = assertErrorRedirect(location, client, error.code());
        // a sanction's refusal says when it ends (here: never)
        assertThat(decoded(query, "error_description")).isEqualTo(error == AuthorizeError.SUSPENDED
                ? error.description() + " de forma permanente" : error.description());
    }

    /** The consent page's denial (decisions §12.6): {@code access_denied} with its description. */
    @Test
    void theConsentPagesDenialDescriptionIsOfRfc6749sCharacters() {
        var client = newThirdPartyClient();
        User user = newLoggedInUser("Olaia");
        String consent = localPart(WebClient.location(user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "st")))));
        assertThat(consent).startsWith("/oauth/consent?request=");
        HttpResponse<String> page = user.browser().get(consent);
        String request = UriUtils.decode(UriComponentsBuilder.fromUriString(consent).build().getQueryParams()
                .getFirst("request"), StandardCharsets.UTF_8);

        HttpResponse<String> denied = user.browser().postForm("/oauth/consent", Map.of("request", request,
                "decision", "deny", "_csrf", WebClient.csrfOf(page.body())));

        assertThat(denied.statusCode()).isEqualTo(302);
        assertErrorRedirect(WebClient.location(denied), client, "access_denied");
    }

    WebClient browser() {
        return newLoggedInUser("Olaia").browser();
    }

    static String refusal(WebClient browser, ClientService.NewCredentials client, Map<String, String> extra) {
        Map<String, String> parameters = new LinkedHashMap<>(extra);
        parameters.put("state", "st");
        HttpResponse<String> response = browser.get(authorizeUrl(client, "openid", parameters));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        return WebClient.location(response);
    }

    static MultiValueMap<String, String> assertErrorRedirect(String location, ClientService.NewCredentials client,
            String error) {
        assertThat(location).startsWith(client.redirectUri() + "?error=" + error + "&error_description=");
        MultiValueMap<String, String> query = UriComponentsBuilder.fromUriString(location).build().getQueryParams();
        assertThat(query.getFirst("state")).isEqualTo("st");
        assertThat(decoded(query, "error_description")).as(location).matches(RFC6749);
        return query;
    }

    static String decoded(MultiValueMap<String, String> query, String name) {
        return UriUtils.decode(query.getFirst(name), StandardCharsets.UTF_8);
    }
}
