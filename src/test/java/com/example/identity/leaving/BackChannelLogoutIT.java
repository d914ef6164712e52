package com.example.identity.leaving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.identity.account.AccountDeletion;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.WebClient;

/**
 * OpenID Connect Back-Channel Logout 1.0 with a real relying party: a Spring Boot site with Spring Security's
 * {@code oauth2Login()} and {@code oidcLogout().backChannel()} ({@link RelyingParty}), logged in through this
 * service by a browser with cookies, loses its session within seconds when the person logs out here, when an admin
 * disables the account, and when the account is deleted; another person's session at the site stays.
 */
class BackChannelLogoutIT extends LeavingTestBase {

    static final int SITE_PORT = freePort();
    static final String SITE = "http://127.0.0.1:" + SITE_PORT;

    static ConfigurableApplicationContext site;
    static ClientService.NewCredentials client;

    @Autowired
    AccountDeletion deletion;

    @BeforeEach
    void siteRunning() {
        if (site == null) {
            client = clients.register(adminId(), "Sitio de prueba", SITE + "/login/oauth2/code/idp", List.of(),
                    ClientType.WEB, SITE + "/logout/connect/back-channel/idp");
            clients.setFirstParty(new Caller(adminId(), true), client.clientId(), true);
            site = RelyingParty.start(SITE_PORT, ISSUER, client.clientId(), client.clientSecret());
        }
    }

    @AfterAll
    static void siteStopped() {
        if (site != null) {
            site.close();
            site = null;
        }
    }

    /** A browser in which {@code user} logged in here, then at the site through this service. */
    Browser loggedInAtTheSite(User user) {
        Browser browser = new Browser();
        browser.login(ISSUER, user.email(), PASSWORD);
        HttpResponse<String> page = browser.follow(SITE + "/");
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body()).startsWith("hola user:" + user.id() + " sid=");
        return browser;
    }

    static boolean loggedInAtTheSite(Browser browser) {
        return browser.get(SITE + "/").statusCode() == 200;
    }

    static void awaitLoggedOut(Browser browser) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> !loggedInAtTheSite(browser));
    }

    @Test
    void theIdTokenCarriesTheSessionsSidAndDiscoveryAnnouncesIt() {
        User user = newLoggedInUser(Role.USER);
        Browser browser = loggedInAtTheSite(user);
        String sid = browser.get(SITE + "/").body().replaceFirst(".* sid=", "");
        assertThat(sid).matches("[A-Za-z0-9_-]{22}");
        assertThat(jdbc.queryForList("select client_id from oauth_authorizations where sid = ? and user_id = ?",
                String.class, sid, user.id())).containsExactly(client.clientId());
        // the same session logs the site in again with the same sid
        Browser again = new Browser();
        again.login(ISSUER, user.email(), PASSWORD);
        assertThat(again.follow(SITE + "/").body()).doesNotContain(sid);

        String discovery = new WebClient(ISSUER).get("/.well-known/openid-configuration").body();
        assertThat(discovery).contains("\"backchannel_logout_supported\":true")
                .contains("\"backchannel_logout_session_supported\":true");
    }

    @Test
    void theSiteLosesItsSessionWhenThePersonLogsOutHere() {
        User user = newLoggedInUser(Role.USER);
        User other = newLoggedInUser(Role.USER);
        Browser browser = loggedInAtTheSite(user);
        Browser otherBrowser = loggedInAtTheSite(other);

        String csrf = WebClient.csrfOf(browser.get(ISSUER + "/cuenta/").body());
        HttpResponse<String> logout = browser.postForm(ISSUER + "/logout", Map.of("_csrf", csrf));
        assertThat(logout.statusCode()).isEqualTo(302);

        awaitLoggedOut(browser);
        assertThat(loggedInAtTheSite(otherBrowser)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                "select count(*) from outbox_messages where message_key like ?", Integer.class,
                "client:" + client.clientId() + ":%") == 0);
    }

    @Test
    void theSiteLosesItsSessionWhenAnAdminDisablesTheAccount() {
        User user = newLoggedInUser(Role.USER);
        Browser browser = loggedInAtTheSite(user);

        assertThat(administration.disable(new Caller(adminId(), true), user.id())).isTrue();

        awaitLoggedOut(browser);
    }

    @Test
    void theSiteLosesItsSessionWhenTheAccountIsDeleted() {
        User user = newLoggedInUser(Role.USER);
        Browser browser = loggedInAtTheSite(user);

        assertThat(deletion.delete(user.id(), new Caller(adminId(), true))).isEqualTo(AccountDeletion.Outcome.DELETED);

        awaitLoggedOut(browser);
    }
}
