package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.support.WebClient;
import com.nimbusds.jwt.SignedJWT;

import tools.jackson.databind.JsonNode;

/**
 * The {@code claims} parameter (OIDC Core §5.5, decisions §12.2): every user claim that {@code claims_supported}
 * announces ({@code email}, {@code email_verified}, {@code name}, {@code given_name}) is given when asked for,
 * in the id_token or at UserInfo, each on its own and without the scope that usually brings it; {@code sub},
 * {@code auth_time}, {@code amr} are always there and {@code acr} when earned; {@code sub} with a value and
 * {@code acr} with values are acted on; and a third-party application's consent covers what it asks for by
 * claim as by scope.
 */
class ClaimsParameterIT extends OAuthTestBase {

    static final Set<String> USER_CLAIMS = Set.of("email", "email_verified", "name", "given_name");

    record Tokens(JsonNode idToken, String accessToken) {
    }

    /** Logs {@code user} in to a new first-party application with scope openid and {@code claims}; the tokens. */
    Tokens tokens(User user, String claims) throws Exception {
        var client = newClient();
        String code = authorize(user.browser(), client, "openid", Map.of("state", "s", "nonce", "n", "claims", claims));
        JsonNode answer = json(exchange(client, code));
        JsonNode idToken = JSON.readTree(SignedJWT.parse(answer.get("id_token").asString()).getPayload().toString());
        return new Tokens(idToken, answer.get("access_token").asString());
    }

    static HttpResponse<String> userInfo(String accessToken) {
        return new WebClient(ISSUER).get("/oauth/userinfo.php", "Authorization", "Bearer " + accessToken);
    }

    @ParameterizedTest
    @ValueSource(strings = { "email", "email_verified", "name", "given_name" })
    void eachAnnouncedUserClaimAskedForInTheIdTokenIsThereAloneWithoutItsScope(String claim) throws Exception {
        User user = newLoggedInUser("Greta");

        Tokens tokens = tokens(user, "{\"id_token\":{\"" + claim + "\":null}}");

        Object expected = switch (claim) {
            case "email" -> user.email();
            case "email_verified" -> false;
            default -> "Greta";
        };
        JsonNode value = tokens.idToken().get(claim);
        assertThat(value.isBoolean() ? (Object) value.asBoolean() : value.asString()).isEqualTo(expected);
        assertThat(tokens.idToken().propertyNames()).as("only the claim asked for")
                .doesNotContainAnyElementsOf(USER_CLAIMS.stream().filter(c -> !c.equals(claim)).toList());
        // asked for in the id_token only: not at UserInfo
        assertThat(userInfo(tokens.accessToken()).body()).isEqualTo("{\"sub\":\"user:" + user.id() + "\"}");
    }

    @Test
    void givenNameAndEmailVerifiedAskedForAtUserInfoAreThereAndNotInTheIdToken() throws Exception {
        User user = newLoggedInUser("Greta");

        Tokens tokens = tokens(user, "{\"userinfo\":{\"given_name\":{\"essential\":true},\"email_verified\":null}}");

        HttpResponse<String> answer = userInfo(tokens.accessToken());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body())
                .isEqualTo("{\"sub\":\"user:" + user.id() + "\",\"email_verified\":false,\"given_name\":\"Greta\"}");
        assertThat(tokens.idToken().propertyNames()).doesNotContainAnyElementsOf(USER_CLAIMS);
    }

    @Test
    void allFourAtBothPlacesGiveTheSameAsBothScopes() throws Exception {
        User user = newLoggedInUser("Greta");
        String all = "{\"email\":null,\"email_verified\":null,\"name\":null,\"given_name\":null}";

        Tokens tokens = tokens(user, "{\"id_token\":" + all + ",\"userinfo\":" + all + "}");

        assertThat(userInfo(tokens.accessToken()).body()).isEqualTo("{\"sub\":\"user:" + user.id() + "\",\"email\":\""
                + user.email() + "\",\"email_verified\":false,\"name\":\"Greta\",\"given_name\":\"Greta\"}");
        assertThat(tokens.idToken().get("email").asString()).isEqualTo(user.email());
        assertThat(tokens.idToken().get("email_verified").asBoolean()).isFalse();
        assertThat(tokens.idToken().get("name").asString()).isEqualTo("Greta");
        assertThat(tokens.idToken().get("given_name").asString()).isEqualTo("Greta");
    }

    @Test
    void subAuthTimeAmrAreAlwaysThereAndAcrOnlyWhenASecondFactorWasUsed() throws Exception {
        User user = newLoggedInUser("Greta");

        Tokens tokens = tokens(user, "{\"id_token\":{\"sub\":null,\"auth_time\":{\"essential\":true},\"amr\":null,"
                + "\"acr\":null}}");

        assertThat(tokens.idToken().get("sub").asString()).isEqualTo("user:" + user.id());
        assertThat(tokens.idToken().get("auth_time").isNumber()).isTrue();
        assertThat(tokens.idToken().get("amr").valueStream().map(JsonNode::asString).toList()).containsExactly("pwd");
        assertThat(tokens.idToken().has("acr")).as("a voluntary acr of a password login").isFalse();
    }

    @Test
    void subWithTheValueOfTheLoggedInUserGetsACode() throws Exception {
        User user = newLoggedInUser("Greta");

        Tokens tokens = tokens(user, "{\"id_token\":{\"sub\":{\"value\":\"user:" + user.id() + "\"}}}");

        assertThat(tokens.idToken().get("sub").asString()).isEqualTo("user:" + user.id());
    }

    @Test
    void subWithAnotherUsersValueNeverGivesACodeForTheSessionsUser() {
        User user = newLoggedInUser("Greta");
        var client = newClient();
        String claims = "{\"id_token\":{\"sub\":{\"value\":\"user:" + (user.id() + 100000) + "\"}}}";

        // prompt=none: login_required
        String silent = WebClient.location(user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "s1", "claims", claims, "prompt", "none"))));
        assertThat(silent).startsWith(client.redirectUri() + "?error=login_required&").endsWith("&state=s1");

        // otherwise a fresh login; the same user logging in again is refused, never given a code
        String authorize = authorizeUrl(client, "openid", Map.of("state", "s2", "claims", claims));
        String toLogin = WebClient.location(user.browser().get(authorize));
        assertThat(toLogin).startsWith("/login/?redirect=");
        var login = user.browser().login(user.email(), "correct-password-123", authorize);
        assertThat(WebClient.location(login)).isEqualTo(authorize);
        String refused = WebClient.location(user.browser().get(authorize));
        var query = UriComponentsBuilder.fromUriString(refused).build().getQueryParams();
        assertThat(refused).startsWith(client.redirectUri() + "?error=access_denied&");
        assertThat(query.getFirst("code")).isNull();
        assertThat(org.springframework.web.util.UriUtils.decode(query.getFirst("error_description"),
                java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("La sesion iniciada es de otra cuenta que la pedida en claims (sub)");
        assertThat(query.getFirst("state")).isEqualTo("s2");
    }

    @Test
    void acrAskedForWithMfaDemandsASecondFactorLikeAcrValues() {
        User user = newLoggedInUser("Greta");
        var client = newClient();
        String claims = "{\"id_token\":{\"acr\":{\"essential\":true,\"values\":[\"mfa\"]}}}";

        String silent = WebClient.location(user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "s", "claims", claims, "prompt", "none"))));
        assertThat(silent).startsWith(client.redirectUri() + "?error=interaction_required&");

        // a password-only session is sent to set a second factor up, as with acr_values=mfa (SecondFactorIT)
        assertThat(WebClient.location(user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "s", "claims", claims))))).isEqualTo("/login/segundo-paso/alta");
        // and so is an essential acr without values (mfa is the only class stated), and a voluntary "value": "mfa"
        for (String other : new String[] { "{\"id_token\":{\"acr\":{\"essential\":true}}}",
                "{\"id_token\":{\"acr\":{\"value\":\"mfa\"}}}" }) {
            User another = newLoggedInUser("Gala");
            assertThat(WebClient.location(another.browser().get(authorizeUrl(client, "openid",
                    Map.of("state", "s", "claims", other))))).as(other).isEqualTo("/login/segundo-paso/alta");
        }
    }

    @Test
    void anEssentialAcrOfValuesNeverGivenIsAccessDeniedAndAVoluntaryOneIsIgnored() throws Exception {
        var client = newClient();
        String claims = "{\"id_token\":{\"acr\":{\"essential\":true,\"values\":[\"urn:example:loa:4\"]}}}";

        // refused before any login: nothing this server does could meet it
        String refused = WebClient.location(new WebClient(ISSUER).get(authorizeUrl(client, "openid",
                Map.of("state", "s", "claims", claims))));
        assertThat(refused).startsWith(client.redirectUri() + "?error=access_denied&error_description=").endsWith("&state=s");
        assertThat(org.springframework.web.util.UriUtils.decode(UriComponentsBuilder.fromUriString(refused).build()
                .getQueryParams().getFirst("error_description"), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("Ningun inicio de sesion de este servicio tiene el nivel (acr) pedido como esencial; el unico es mfa");

        User user = newLoggedInUser("Greta");
        Tokens tokens = tokens(user, "{\"id_token\":{\"acr\":{\"values\":[\"urn:example:loa:4\"]}}}");
        assertThat(tokens.idToken().has("acr")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = { "{\"id_token\":{\"sub\":{\"value\":42}}}", "{\"id_token\":{\"acr\":{\"values\":[1]}}}",
            "{\"id_token\":{\"acr\":{\"value\":[\"mfa\"]}}}" })
    void aSubOrAcrValueThatIsNotAStringIsInvalidRequest(String claims) {
        User user = newLoggedInUser("Greta");
        var client = newClient();

        String location = WebClient.location(user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "s", "claims", claims))));

        assertThat(location).startsWith(client.redirectUri() + "?error=invalid_request&").endsWith("&state=s");
    }

    @Test
    void aThirdPartyApplicationAskingForTheEmailByClaimNeedsConsentForTheEmail() {
        User user = newLoggedInUser("Greta");
        var client = newThirdPartyClient();
        // consent to openid alone
        authorize(user.browser(), client, "openid");

        HttpResponse<String> byClaim = user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "s", "claims", "{\"userinfo\":{\"email\":null}}")));

        String consent = localPart(WebClient.location(byClaim));
        assertThat(consent).startsWith("/oauth/consent?");
        HttpResponse<String> page = user.browser().get(consent);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Tu dirección de correo electrónico").doesNotContain("Tu nombre");
        // once approved, the consent covers it: no page the next time
        approvingConsent(user.browser(), byClaim);
        assertThat(WebClient.location(user.browser().get(authorizeUrl(client, "openid",
                Map.of("state", "s2", "claims", "{\"id_token\":{\"email_verified\":null}}")))))
                .startsWith(client.redirectUri() + "?code=");
    }
}
