package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;

import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.web.PagePolicy;

/** Which authorization requests a page may lead back to: local, of a known live application, to its address. */
class ReturnToApplicationTest {

    static final String CALLBACK = "https://tienda.example.com/cb";

    RegisteredClientRepository clients = mock(RegisteredClientRepository.class);

    static RegisteredClient client(String id, boolean revoked) {
        return RegisteredClient.withId(id).clientId(id).clientSecret("x")
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE).redirectUri(CALLBACK)
                .clientSettings(ClientSettings.builder().setting(DatabaseRegisteredClientRepository.REVOKED, revoked).build())
                .build();
    }

    static String authorize(String query) {
        return "/oauth/authorize.php?" + query;
    }

    @Test
    void aCheckedRequestOfAKnownApplication() {
        when(clients.findByClientId("tienda")).thenReturn(client("tienda", false));
        String url = authorize("response_type=code&client_id=tienda&redirect_uri=https%3A%2F%2Ftienda.example.com%2Fcb"
                + "&state=a+b%26c&scope=openid");
        var back = ReturnToApplication.of(url, clients);
        assertThat(back).isNotNull();
        assertThat(back.url()).isEqualTo(url);
        assertThat(back.redirectUri()).isEqualTo(CALLBACK);
        assertThat(back.client().getClientId()).isEqualTo("tienda");
        assertThat(back.parameter("state")).as("decoded like the servlet container: '+' is a space").isEqualTo("a b&c");
        assertThat(back.parameter("nonce")).isNull();
    }

    @Test
    void nothingButALocalAuthorizationRequest() {
        when(clients.findByClientId("tienda")).thenReturn(client("tienda", false));
        String query = "client_id=tienda&redirect_uri=" + CALLBACK;
        assertThat(ReturnToApplication.of(null, clients)).isNull();
        assertThat(ReturnToApplication.of("https://evil.example/oauth/authorize.php?" + query, clients)).isNull();
        assertThat(ReturnToApplication.of("//evil.example/oauth/authorize.php?" + query, clients)).isNull();
        assertThat(ReturnToApplication.of("/oauth/authorize.phpx?" + query, clients)).isNull();
        assertThat(ReturnToApplication.of("/cuenta/?" + query, clients)).isNull();
        assertThat(ReturnToApplication.of(authorize(query), clients)).isNotNull();
    }

    @Test
    void anUnknownRevokedOrAmbiguousApplicationIsNotOne() {
        when(clients.findByClientId("tienda")).thenReturn(client("tienda", false));
        when(clients.findByClientId("vieja")).thenReturn(client("vieja", true));
        assertThat(ReturnToApplication.of(authorize("client_id=nadie&redirect_uri=" + CALLBACK), clients)).isNull();
        assertThat(ReturnToApplication.of(authorize("client_id=vieja&redirect_uri=" + CALLBACK), clients)).isNull();
        assertThat(ReturnToApplication.of(authorize("client_id=tienda&client_id=tienda&redirect_uri=" + CALLBACK), clients))
                .as("client_id repeated").isNull();
        assertThat(ReturnToApplication.of(authorize("client_id=tienda"), clients)).as("no redirect_uri").isNull();
        assertThat(ReturnToApplication.of(authorize("client_id=tienda&redirect_uri=https://evil.example/cb"), clients))
                .as("an address not registered").isNull();
        assertThat(ReturnToApplication.of(authorize("client_id=tienda&redirect_uri=%zz"), clients)).as("malformed").isNull();
    }

    @Test
    void theFormsOfTheAnsweringPageMayReachTheApplicationOnly() {
        when(clients.findByClientId("tienda")).thenReturn(client("tienda", false));
        var response = new MockHttpServletResponse();
        ReturnToApplication.allowFormsToReach(response, authorize("client_id=tienda&redirect_uri=" + CALLBACK), clients);
        assertThat(response.getHeader(PagePolicy.HEADER)).isEqualTo(PagePolicy.allowingFormsTo(CALLBACK))
                .contains("form-action 'self' https://tienda.example.com");

        var untouched = new MockHttpServletResponse();
        ReturnToApplication.allowFormsToReach(untouched, authorize("client_id=nadie&redirect_uri=" + CALLBACK), clients);
        assertThat(untouched.getHeader(PagePolicy.HEADER)).isNull();
    }
}
