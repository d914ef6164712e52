package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;

import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;

/**
 * The authorization request parameters of decisions §12.2, one nested class per module of the OpenID
 * Foundation's Basic OP test plan that concerns the authorization endpoint (named after the module), each
 * asserting what that module checks, over real HTTP: exact statuses and {@code Location} headers, the
 * login page's HTML, the id_token's claims.
 */
class BasicOpAuthorizationRequestIT extends OAuthTestBase {

    @Autowired
    MovableClock clock;

    static final String PASSWORD = "correct-password-123";

    /** A person with an account and a browser (cookie jar) of their own. */
    record Person(String email, WebClient browser, String subject) {
    }

    ClientService.NewCredentials client;

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.security.oauth2.jwt.JwtEncoder jwtEncoder;

    @BeforeEach
    void registerClient() {
        client = newClient();
    }

    Person person(String name) {
        String email = "op-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create(name, email, PASSWORD, Role.USER).getId();
        return new Person(email, new WebClient(ISSUER), "user:" + id);
    }

    Person loggedInPerson(String name) {
        Person person = person(name);
        assertThat(person.browser().login(person.email(), PASSWORD).statusCode()).isEqualTo(302);
        return person;
    }

    /** The standard parameters of an authentication request, then {@code extra}. */
    Map<String, String> request(Map<String, String> extra) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", "openid");
        query.put("state", "st-" + UUID.randomUUID());
        query.put("nonce", "n-" + UUID.randomUUID());
        query.putAll(extra);
        return query;
    }

    static String url(Map<String, String> query) {
        return "/oauth/authorize.php?" + WebClient.encode(query);
    }

    static Map<String, String> queryOf(String location) {
        Map<String, String> params = new LinkedHashMap<>();
        UriComponentsBuilder.fromUriString(location).build().getQueryParams().forEach((name, values) ->
                params.put(name, URLDecoder.decode(values.get(0), StandardCharsets.UTF_8)));
        return params;
    }

    /** The code of a 302 to the client's redirect URI with {@code state}. */
    String codeOf(HttpResponse<String> response, String state) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        String location = WebClient.location(response);
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        Map<String, String> params = queryOf(location);
        assertThat(params.get("state")).isEqualTo(state);
        assertThat(params).doesNotContainKey("error");
        return params.get("code");
    }

    /** A 302 to the client's redirect URI with {@code error}, a Spanish description and the state. */
    void assertErrorRedirect(HttpResponse<String> response, String error, String state) {
        assertThat(response.statusCode()).isEqualTo(302);
        String location = WebClient.location(response);
        assertThat(location).startsWith(client.redirectUri() + "?error=" + error + "&error_description=");
        Map<String, String> params = queryOf(location);
        assertThat(params.get("error")).isEqualTo(error);
        assertThat(params.get("state")).isEqualTo(state);
        assertThat(params.get("error_description")).isNotBlank();
        assertThat(params).doesNotContainKey("code");
    }

    /** A 302 to the login page whose way back is {@code back}. */
    static void assertLoginPage(HttpResponse<String> response, String back) {
        assertThat(response.statusCode()).isEqualTo(302);
        String location = WebClient.location(response);
        assertThat(location).startsWith("/login/?redirect=");
        assertThat(queryOf(location).get("redirect")).isEqualTo(back);
    }

    /** The user logs in on the login page they were sent to, is sent back, and the request goes on. */
    HttpResponse<String> logInAndGoBack(Person person, HttpResponse<String> toLogin) {
        String back = queryOf(WebClient.location(toLogin)).get("redirect");
        var login = person.browser().login(person.email(), PASSWORD, back);
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(login)).isEqualTo(back);
        return person.browser().get(back);
    }

    JsonNode idTokenOf(String code) {
        var response = exchange(client, code);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        try {
            var jwt = SignedJWT.parse(json(response).get("id_token").asString());
            return JSON.readTree(jwt.getPayload().toString());
        }
        catch (java.text.ParseException e) {
            throw new AssertionError(e);
        }
    }

    /** A full authorization in {@code person}'s session, returning the id_token's claims. */
    JsonNode authenticate(Person person, Map<String, String> extra) {
        var query = request(extra);
        return idTokenOf(codeOf(person.browser().get(url(query)), query.get("state")));
    }


    @Nested
    class OidccPromptNoneNotLoggedIn {

        @Test
        void loginRequiredIsSentToTheRedirectUriWithTheStateAndNoPageIsShown() {
            var query = request(Map.of("prompt", "none"));

            var response = new WebClient(ISSUER).get(url(query));

            assertErrorRedirect(response, "login_required", query.get("state"));
            assertThat(WebClient.location(response)).isEqualTo(client.redirectUri()
                    + "?error=login_required&error_description="
                    + "Hace%20falta%20iniciar%20sesion%20y%20prompt%3Dnone%20no%20permite%20mostrar%20la%20pagina"
                    + "&state=" + query.get("state"));
            assertThat(response.body()).isEmpty();
        }

        @Test
        void anUnknownClientOrAnotherRedirectUriKeepsTheErrorPageNeverARedirect() {
            var unknown = request(Map.of("prompt", "none", "client_id", "nope"));
            AuthorizeEndpointIT.assertErrorPage(new WebClient(ISSUER).get(url(unknown)), "client_id inválido");

            var elsewhere = request(Map.of("prompt", "none", "redirect_uri", "https://evil.example/cb"));
            AuthorizeEndpointIT.assertErrorPage(new WebClient(ISSUER).get(url(elsewhere)),
                    "redirect_uri no coincide con el registrado");
        }

        @Test
        void withoutStateTheErrorStillGoesBack() {
            var query = request(Map.of("prompt", "none"));
            query.remove("state");

            var response = new WebClient(ISSUER).get(url(query));

            assertThat(response.statusCode()).isEqualTo(302);
            assertThat(WebClient.location(response)).startsWith(client.redirectUri() + "?error=login_required&")
                    .doesNotContain("state=");
        }

        @Test
        void noneWithAnotherValueIsInvalid() {
            // Spring Authorization Server's own prompt check, in the shape of decisions §2 (no description)
            var query = request(Map.of("prompt", "none login"));

            var response = new WebClient(ISSUER).get(url(query));

            assertThat(response.statusCode()).isEqualTo(302);
            assertThat(WebClient.location(response))
                    .isEqualTo(client.redirectUri() + "?error=invalid_request&state=" + query.get("state"));
        }
    }

    @Nested
    class OidccPromptNoneLoggedIn {

        @Test
        void aUserWhoMustFirstChangeThePasswordIsInteractionRequired() {
            String email = "op-" + UUID.randomUUID() + "@example.com";
            String oneTime = administration.createWithTemporaryPassword("Tina", email, Role.USER).temporaryPassword();
            var browser = new WebClient(ISSUER);
            assertThat(browser.login(email, oneTime).statusCode()).isEqualTo(302);
            var query = request(Map.of("prompt", "none"));

            assertErrorRedirect(browser.get(url(query)), "interaction_required", query.get("state"));
        }

        @Test
        void aLoggedInUserGetsACodeWithoutAnyPage() {
            Person person = loggedInPerson("Nora");
            JsonNode first = authenticate(person, Map.of());

            var query = request(Map.of("prompt", "none"));
            JsonNode second = idTokenOf(codeOf(person.browser().get(url(query)), query.get("state")));

            assertThat(second.get("sub").asString()).isEqualTo(person.subject());
            assertThat(second.get("nonce").asString()).isEqualTo(query.get("nonce"));
            assertThat(second.get("auth_time").asLong()).isEqualTo(first.get("auth_time").asLong());
        }
    }

    @Nested
    class OidccPromptLogin {

        @Test
        void aFreshLoginIsAskedForEvenWithASessionThenTheRequestGoesOnWithALaterAuthTime() {
            Person person = loggedInPerson("Lola");
            JsonNode first = authenticate(person, Map.of());
            clockReaches(first.get("auth_time").asLong() + 1); // a later login has a later auth_time

            var query = request(Map.of("prompt", "login"));
            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));

            var back = logInAndGoBack(person, toLogin);
            JsonNode second = idTokenOf(codeOf(back, query.get("state")));

            assertThat(second.get("sub").asString()).isEqualTo(person.subject());
            assertThat(second.get("auth_time").asLong()).isGreaterThan(first.get("auth_time").asLong());
        }

        @Test
        void comingBackWithoutLoggingInAsksAgain() {
            Person person = loggedInPerson("Lara");
            var query = request(Map.of("prompt", "login"));

            assertLoginPage(person.browser().get(url(query)), url(query));
            assertLoginPage(person.browser().get(url(query)), url(query));
        }

        @Test
        void aVisitorWithoutSessionLogsInOnceNotTwice() {
            Person person = person("Luz");
            var query = request(Map.of("prompt", "login"));

            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));

            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }

        @Test
        void theFreshLoginCountsForThatRequestOnly() {
            Person person = loggedInPerson("Lía");
            var query = request(Map.of("prompt", "login"));
            codeOf(logInAndGoBack(person, person.browser().get(url(query))), query.get("state"));

            var next = request(Map.of("prompt", "login"));
            assertLoginPage(person.browser().get(url(next)), url(next));
        }
    }

    @Nested
    class OidccMaxAge1 {

        @Test
        void aLoginOlderThanMaxAgeMeansAFreshLoginAndANewerAuthTime() {
            Person person = loggedInPerson("Mara");
            JsonNode first = authenticate(person, Map.of());
            clockReaches(first.get("auth_time").asLong() + 2); // more than a second after the login

            var query = request(Map.of("max_age", "1"));
            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));
            JsonNode second = idTokenOf(codeOf(logInAndGoBack(person, toLogin), query.get("state")));

            assertThat(second.get("auth_time").asLong()).isGreaterThan(first.get("auth_time").asLong());
        }

        @Test
        void maxAgeZeroIsAFreshLoginEveryTimeWithoutALoop() {
            Person person = loggedInPerson("Maite");
            var query = request(Map.of("max_age", "0"));

            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));
            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }

        @Test
        void withPromptNoneATooOldLoginIsLoginRequired() {
            Person person = loggedInPerson("Maya");
            clock.advance(Duration.ofMillis(1100)); // the max_age rule runs on the service's clock
            var query = request(Map.of("max_age", "1", "prompt", "none"));

            assertErrorRedirect(person.browser().get(url(query)), "login_required", query.get("state"));
        }

        @ParameterizedTest
        @ValueSource(strings = { "-1", "abc", "1.5", "99999999999" })
        void aMalformedMaxAgeIsInvalidRequest(String maxAge) {
            Person person = loggedInPerson("Mía");
            var query = request(Map.of("max_age", maxAge));

            assertErrorRedirect(person.browser().get(url(query)), "invalid_request", query.get("state"));
        }
    }

    @Nested
    class OidccMaxAge10000 {

        @Test
        void aRecentLoginIsEnoughAndAuthTimeStaysTheSame() {
            Person person = loggedInPerson("Marta");
            JsonNode first = authenticate(person, Map.of());
            clockReaches(first.get("auth_time").asLong() + 1); // a new login would show a later auth_time

            JsonNode second = authenticate(person, Map.of("max_age", "10000"));

            assertThat(second.get("auth_time").asLong()).isEqualTo(first.get("auth_time").asLong());
        }
    }

    @Nested
    class OidccIdTokenHint {

        @Test
        void theUsersOwnIdTokenIsAcceptedWithPromptNone() {
            Person person = loggedInPerson("Inés");
            JsonNode first = authenticate(person, Map.of());
            String hint = rawIdToken(person);

            JsonNode second = authenticate(person, Map.of("prompt", "none", "id_token_hint", hint));

            assertThat(second.get("sub").asString()).isEqualTo(first.get("sub").asString());
        }

        @Test
        void anotherUsersIdTokenIsLoginRequiredWithPromptNoneAndAFreshLoginOtherwise() {
            Person other = loggedInPerson("Otto");
            String hint = rawIdToken(other);
            Person person = loggedInPerson("Iris");

            var silent = request(Map.of("prompt", "none", "id_token_hint", hint));
            assertErrorRedirect(person.browser().get(url(silent)), "login_required", silent.get("state"));

            var query = request(Map.of("id_token_hint", hint));
            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));
            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }

        @Test
        void anExpiredIdTokenOfOursStillServesAsAHint() {
            Person person = loggedInPerson("Irene");
            String expired = signed(ISSUER, person.subject(), java.time.Instant.now().minusSeconds(7200));

            JsonNode idToken = authenticate(person, Map.of("prompt", "none", "id_token_hint", expired));

            assertThat(idToken.get("sub").asString()).isEqualTo(person.subject());
        }

        @Test
        void anIdTokenOfAnotherIssuerIsInvalidRequest() {
            Person person = loggedInPerson("Isa");
            var query = request(Map.of("id_token_hint",
                    signed("https://other.example", person.subject(), java.time.Instant.now())));

            assertErrorRedirect(person.browser().get(url(query)), "invalid_request", query.get("state"));
        }

        /** A JWT signed with this server's current key, as an id_token of {@code issuer} issued at {@code issuedAt}. */
        private String signed(String issuer, String subject, java.time.Instant issuedAt) {
            var claims = org.springframework.security.oauth2.jwt.JwtClaimsSet.builder().issuer(issuer).subject(subject)
                    .audience(List.of(client.clientId())).issuedAt(issuedAt).expiresAt(issuedAt.plusSeconds(300)).build();
            var header = org.springframework.security.oauth2.jwt.JwsHeader
                    .with(org.springframework.security.oauth2.jose.jws.SignatureAlgorithm.RS256).build();
            return jwtEncoder.encode(org.springframework.security.oauth2.jwt.JwtEncoderParameters.from(header, claims))
                    .getTokenValue();
        }

        @ParameterizedTest
        @ValueSource(strings = { "not-a-jwt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyOjEifQ." })
        void somethingThatIsNotOurIdTokenIsInvalidRequest(String hint) {
            Person person = loggedInPerson("Ida");
            var query = request(Map.of("id_token_hint", hint));

            assertErrorRedirect(person.browser().get(url(query)), "invalid_request", query.get("state"));
        }

        @Test
        void aTamperedSignatureIsInvalidRequest() {
            Person person = loggedInPerson("Iker");
            String hint = rawIdToken(person);
            String tampered = hint.substring(0, hint.length() - 4) + (hint.endsWith("AAAA") ? "BBBB" : "AAAA");
            var query = request(Map.of("prompt", "none", "id_token_hint", tampered));

            assertErrorRedirect(person.browser().get(url(query)), "invalid_request", query.get("state"));
        }

        private String rawIdToken(Person person) {
            var query = request(Map.of());
            String code = codeOf(person.browser().get(url(query)), query.get("state"));
            return json(exchange(client, code)).get("id_token").asString();
        }
    }

    @Nested
    class OidccLoginHint {

        @Test
        void theEmailFieldIsPreFilled() {
            Person person = person("Lina");
            var query = request(Map.of("login_hint", person.email()));

            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));
            var page = person.browser().get(WebClient.location(toLogin));

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("name=\"username\"").contains("value=\"" + person.email() + "\"");
            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }

        @Test
        void theHintIsEscapedNeverMarkup() {
            var query = request(Map.of("login_hint", "\"><script>alert(1)</script>"));
            var browser = new WebClient(ISSUER);

            var page = browser.get(WebClient.location(browser.get(url(query))));

            assertThat(page.body()).doesNotContain("<script>alert(1)</script>")
                    .contains("value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\"");
        }

        @Test
        void withoutAHintTheFieldIsEmpty() {
            var browser = new WebClient(ISSUER);
            var page = browser.get(WebClient.location(browser.get(url(request(Map.of())))));

            assertThat(page.body()).containsPattern("<input type=\"email\" id=\"username\"[^>]*autofocus value=\"\">");
        }
    }

    /** Modules that send a parameter the server accepts and must not fail on: with a session, a code. */
    abstract class AcceptedParameter {

        abstract Map<String, String> parameters();

        @Test
        void theRequestSucceeds() {
            Person person = loggedInPerson("Pau");
            JsonNode idToken = authenticate(person, parameters());
            assertThat(idToken.get("sub").asString()).isEqualTo(person.subject());
        }

        @Test
        void withoutSessionTheLoginPageComesFirst() {
            Person person = person("Pía");
            var query = request(parameters());
            var toLogin = person.browser().get(url(query));
            assertLoginPage(toLogin, url(query));
            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }
    }

    @Nested
    class OidccUiLocales extends AcceptedParameter {
        Map<String, String> parameters() {
            return Map.of("ui_locales", "se");
        }
    }

    @Nested
    class OidccClaimsLocales extends AcceptedParameter {
        Map<String, String> parameters() {
            return Map.of("claims_locales", "se");
        }
    }

    /**
     * The module sends the advertised {@code acr_values_supported} ({@code mfa} here; {@code "1 2"} when a server
     * advertises none). Values this server does not know are accepted and ignored (below); {@code mfa} makes a
     * password-only session prove or set up a second factor first, and the id_token then says {@code acr: mfa}
     * (the whole flow: SecondFactorIT#anApplicationThatDemandsMfaGetsIt).
     */
    @Nested
    class OidccEnsureRequestWithAcrValuesSucceeds extends AcceptedParameter {
        Map<String, String> parameters() {
            return Map.of("acr_values", "1 2");
        }

        @Test
        void theAdvertisedValueSendsAPasswordOnlySessionToTheSecondFactorNotToAnError() {
            Person person = loggedInPerson("Paz");
            var query = request(Map.of("acr_values", "mfa"));

            var response = person.browser().get(url(query));

            assertThat(response.statusCode()).isEqualTo(302);
            assertThat(WebClient.location(response)).isEqualTo("/login/segundo-paso/alta");
        }
    }

    @Nested
    class OidccDisplayPage extends AcceptedParameter {
        Map<String, String> parameters() {
            return Map.of("display", "page");
        }
    }

    @Nested
    class OidccDisplayPopup extends AcceptedParameter {
        Map<String, String> parameters() {
            return Map.of("display", "popup");
        }
    }

    @Nested
    class OidccEnsureRequestWithUnknownParameterSucceeds extends AcceptedParameter {
        Map<String, String> parameters() {
            return Map.of("extra", "foobar");
        }
    }

    @Nested
    class OidccEnsureRequestWithoutNonceSucceedsForCodeFlow {

        @Test
        void aCodeAndAnIdTokenWithoutNonce() {
            Person person = loggedInPerson("Nadia");
            var query = request(Map.of());
            query.remove("nonce");

            JsonNode idToken = idTokenOf(codeOf(person.browser().get(url(query)), query.get("state")));

            assertThat(idToken.has("nonce")).isFalse();
            assertThat(idToken.get("sub").asString()).isEqualTo(person.subject());
        }
    }

    @Nested
    class OidccEnsurePostRequestSucceeds {

        @Test
        void aCrossSitePostFormWithoutCsrfTokenGetsACode() {
            Person person = loggedInPerson("Paula");
            var query = request(Map.of());

            var response = person.browser().postForm("/oauth/authorize.php", query, "Origin", "https://app.example");

            JsonNode idToken = idTokenOf(codeOf(response, query.get("state")));
            assertThat(idToken.get("nonce").asString()).isEqualTo(query.get("nonce"));
        }

        @Test
        void withoutTheSessionCookieTheSameRequestIsRepeatedAsAGetWhichCarriesIt() {
            // a SameSite=Lax session cookie is not sent with a cross-site POST, but with the GET it becomes
            Person person = loggedInPerson("Pilar");
            var query = request(Map.of("login_hint", "x@example.com"));
            String asGet = "/oauth/authorize.php?" + WebClient.encode(query).replace("+", "%20");

            var post = new WebClient(ISSUER).postForm("/oauth/authorize.php", query);
            assertThat(post.statusCode()).isEqualTo(303);
            assertThat(WebClient.location(post)).isEqualTo(asGet);

            codeOf(person.browser().get(WebClient.location(post)), query.get("state"));
        }

        @Test
        void withoutSessionAtAllTheGetLeadsToTheLoginPage() {
            Person person = person("Pía");
            var query = request(Map.of());

            var post = person.browser().postForm("/oauth/authorize.php", query);
            var toLogin = person.browser().get(WebClient.location(post));
            assertLoginPage(toLogin, WebClient.location(post));

            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }

        @Test
        void aPromptLoginPostWithASessionLeadsToTheLoginPageAndBackAsAGet() {
            Person person = loggedInPerson("Perla");
            var query = request(Map.of("prompt", "login"));

            var toLogin = person.browser().postForm("/oauth/authorize.php", query);
            assertLoginPage(toLogin, "/oauth/authorize.php?" + WebClient.encode(query).replace("+", "%20"));

            codeOf(logInAndGoBack(person, toLogin), query.get("state"));
        }

        @Test
        void postErrorsAreTheSameAsGet() {
            var query = request(Map.of("prompt", "none"));
            var browser = new WebClient(ISSUER);
            var post = browser.postForm("/oauth/authorize.php", query);
            assertThat(post.statusCode()).isEqualTo(303);
            assertErrorRedirect(browser.get(WebClient.location(post)), "login_required", query.get("state"));

            var requestUri = request(Map.of("request_uri", "https://rp.example/r"));
            assertErrorRedirect(browser.postForm("/oauth/authorize.php", requestUri), "request_uri_not_supported",
                    requestUri.get("state"));

            var unknown = request(Map.of("client_id", "nope"));
            AuthorizeEndpointIT.assertErrorPage(new WebClient(ISSUER).postForm("/oauth/authorize.php", unknown),
                    "client_id inválido");
        }

        @Test
        void theLoginFormKeepsItsCsrfProtection() {
            Person person = person("Pina");
            var form = new LinkedHashMap<String, String>();
            form.put("username", person.email());
            form.put("password", PASSWORD);
            var response = new WebClient(ISSUER).postForm("/login/", form);
            assertThat(response.statusCode()).isEqualTo(403);
        }
    }

    @Nested
    class OidccRequestUriUnsignedSupportedCorrectlyOrRejectedAsUnsupported {

        @Test
        void requestUriNotSupportedGoesToTheRedirectUri() {
            Person person = loggedInPerson("Rosa");
            var query = request(Map.of("request_uri", "https://rp.example/request.jwt"));

            assertErrorRedirect(person.browser().get(url(query)), "request_uri_not_supported", query.get("state"));
            assertErrorRedirect(new WebClient(ISSUER).get(url(query)), "request_uri_not_supported", query.get("state"));
        }

        @Test
        void butNeverToAnUnverifiedRedirectUri() {
            var query = request(Map.of("request_uri", "https://rp.example/r", "redirect_uri", "https://evil.example/cb"));
            AuthorizeEndpointIT.assertErrorPage(new WebClient(ISSUER).get(url(query)),
                    "redirect_uri no coincide con el registrado");
        }
    }

    @Nested
    class OidccUnsignedRequestObjectSupportedCorrectlyOrRejectedAsUnsupported {

        @Test
        void requestNotSupportedGoesToTheRedirectUri() {
            Person person = loggedInPerson("Raquel");
            String requestObject = "eyJhbGciOiJub25lIn0.eyJjbGllbnRfaWQiOiJ4In0.";
            var query = request(Map.of("request", requestObject));

            assertErrorRedirect(person.browser().get(url(query)), "request_not_supported", query.get("state"));
        }

        @Test
        void butNeverToAnUnverifiedRedirectUri() {
            var query = request(Map.of("request", "x.y.", "client_id", "nope"));
            AuthorizeEndpointIT.assertErrorPage(new WebClient(ISSUER).get(url(query)), "client_id inválido");
        }
    }

    @Nested
    class OidccClaimsEssential {

        @Test
        void anEssentialClaimOfTheIdTokenIsAddedWhenKnown() {
            Person person = loggedInPerson("Clara");

            JsonNode idToken = authenticate(person,
                    Map.of("claims", "{\"id_token\":{\"email\":{\"essential\":true},\"unknown_claim\":null}}"));

            assertThat(idToken.get("email").asString()).isEqualTo(person.email());
            assertThat(idToken.has("name")).isFalse();
            assertThat(idToken.has("unknown_claim")).isFalse();
        }

        @Test
        void aUserinfoRequestIsAccepted() {
            Person person = loggedInPerson("Celia");

            JsonNode idToken = authenticate(person, Map.of("claims", "{\"userinfo\":{\"name\":{\"essential\":true}}}"));

            assertThat(idToken.get("sub").asString()).isEqualTo(person.subject());
        }

        @ParameterizedTest
        @ValueSource(strings = { "{", "[]", "\"x\"", "{\"id_token\":[]}", "{\"id_token\":{\"email\":true}}",
                "{\"userinfo\":{\"name\":{\"essential\":\"yes\"}}}" })
        void malformedClaimsAreInvalidRequest(String claims) {
            Person person = loggedInPerson("Cora");
            var query = request(Map.of("claims", claims));

            assertErrorRedirect(person.browser().get(url(query)), "invalid_request", query.get("state"));
        }
    }

    /** decisions §12.2: every id_token has auth_time, the time of the login, and amr. */
    @Nested
    class AuthTimeAndAmr {

        @Test
        void authTimeIsWhenThePasswordWasTypedNotWhenTheCodeWasIssuedAndAmrIsPwd() {
            long before = java.time.Instant.now().getEpochSecond();
            Person person = loggedInPerson("Alba");
            long after = java.time.Instant.now().getEpochSecond();
            clockReaches(after + 1); // the code is issued in a later second than the password was typed

            JsonNode idToken = authenticate(person, Map.of());

            assertThat(idToken.get("auth_time").asLong()).isBetween(before, after)
                    .isLessThan(idToken.get("iat").asLong());
            assertThat(idToken.get("amr").valueStream().map(JsonNode::asString).toList()).isEqualTo(List.of("pwd"));
        }
    }

    @Nested
    class Discovery {

        @Test
        void theParametersAreAnnounced() {
            JsonNode doc = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));

            assertThat(strings(doc, "prompt_values_supported")).containsExactly("none", "login", "consent");
            assertThat(strings(doc, "display_values_supported")).containsExactly("page", "popup");
            assertThat(doc.get("claims_parameter_supported").asBoolean()).isTrue();
            assertThat(doc.get("request_parameter_supported").asBoolean()).isFalse();
            assertThat(doc.get("request_uri_parameter_supported").asBoolean()).isFalse();
            assertThat(strings(doc, "claims_supported")).contains("auth_time", "amr", "email", "name");
        }

        private List<String> strings(JsonNode doc, String name) {
            return doc.get(name).valueStream().map(JsonNode::asString).toList();
        }
    }
}
