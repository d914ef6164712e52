package com.example.identity.oauth;

import static com.example.identity.oauth.RefreshTokenIT.assertStandardError;
import static com.example.identity.oauth.RefreshTokenIT.refresh;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.token.FamilyPauses;
import com.example.identity.oauth.token.RefreshTokenExchange;
import com.example.identity.support.WebClient;

/**
 * Revocation racing rotation (decisions §12.4, RFC 9700 §4.14), played in a fixed order with the pause
 * points of {@link FamilyPauses}, on whichever database the run uses: a family revoked while one of its
 * tokens is being rotated has no usable token afterwards, the rotation's new one included; and a rotation
 * that waited for a revocation answers the ordinary {@code invalid_grant}, not the reuse one.
 */
class RefreshFamilyRaceIT extends OAuthTestBase {

    @Autowired
    FamilyPauses pauses;

    ExecutorService pool;
    User user;

    @BeforeEach
    void setUp() {
        pool = Executors.newFixedThreadPool(2);
        user = newLoggedInUser("Irati");
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    /** The token response of a code flow of {@code app} with refresh tokens, in {@link #user}'s session. */
    JsonNode login(ClientService.NewCredentials app) {
        String code = authorize(user.browser(), app, "openid offline_access",
                Map.of("state", "s", "nonce", "n-" + UUID.randomUUID()));
        HttpResponse<String> response = exchange(app, code);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response);
    }

    String familyOf(String refreshToken) {
        return jdbc.queryForObject("select authorization_id from refresh_tokens where token_digest = ?", String.class,
                Secrets.sha256Hex(refreshToken));
    }

    int liveRefreshTokens(String family) {
        return jdbc.queryForObject("select count(*) from refresh_tokens where authorization_id = ? and revoked_at is null",
                Integer.class, family);
    }

    static <T> T done(Future<T> future) throws Exception {
        return future.get(FamilyPauses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Withdraws {@code app}'s consent at the account page of {@link #user}; the page is read first. */
    Future<HttpResponse<String>> withdrawing(ClientService.NewCredentials app) {
        HttpResponse<String> page = user.browser().get("/cuenta/aplicaciones");
        assertThat(page.statusCode()).isEqualTo(200);
        String csrf = WebClient.csrfOf(page.body());
        return pool.submit(() -> user.browser().postForm("/cuenta/aplicaciones/retirar",
                Map.of("client_id", app.clientId(), "_csrf", csrf)));
    }

    /**
     * The rotation has spent the old token and not yet stored the new ones when the client revokes the
     * old token (RFC 7009: the whole family): the rotation's answer is already history once the revocation
     * is done, so its refresh token and access token are refused.
     */
    @Test
    void revokingTheFamilyWhileItRotatesLeavesNoTokenAlive() throws Exception {
        var client = newClient();
        revokedDuringARotationLeavesNoTokenAlive(client, refreshToken -> pool.submit(() -> RevocationAndIntrospectionIT
                .post(RevocationAndIntrospectionIT.REVOKE, client, refreshToken)), 200);
    }

    /** The same with the user withdrawing their consent to the (third-party) application meanwhile. */
    @Test
    void withdrawingConsentWhileAFamilyRotatesLeavesNoTokenAlive() throws Exception {
        var client = newThirdPartyClient();
        revokedDuringARotationLeavesNoTokenAlive(client, refreshToken -> withdrawing(client), 302);
    }

    /**
     * A login's refresh token is rotated, and the rotation paused inside its transaction; {@code revoke} (given
     * the login's refresh token) starts then and is let wait for the family's lock; the rotation goes on. Its
     * answer succeeds, and the revocation, answered {@code revokedStatus}, leaves no token of the family alive.
     */
    void revokedDuringARotationLeavesNoTokenAlive(ClientService.NewCredentials client,
            Function<String, Future<HttpResponse<String>>> revoke, int revokedStatus) throws Exception {
        JsonNode first = login(client);
        String refreshToken = first.get("refresh_token").asString();
        String family = familyOf(refreshToken);
        FamilyPauses.Pause pause = pauses.duringRotation(family);

        Future<HttpResponse<String>> rotation = pool.submit(() -> refresh(client, refreshToken));
        pause.awaitReached();
        Future<HttpResponse<String>> revocation = revoke.apply(refreshToken);
        FamilyPauses.awaitBlockedOrDone(jdbc, revocation);
        pause.release();

        HttpResponse<String> rotated = done(rotation);
        assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
        assertThat(done(revocation).statusCode()).isEqualTo(revokedStatus);
        JsonNode second = json(rotated);
        assertStandardError(refresh(client, second.get("refresh_token").asString()), 400, "invalid_grant",
                RefreshTokenExchange.INVALID);
        assertThat(RefreshTokenIT.apiStatus(second.get("access_token").asString())).isEqualTo(401);
        assertThat(RefreshTokenIT.apiStatus(first.get("access_token").asString())).isEqualTo(401);
        assertThat(liveRefreshTokens(family)).isZero();
    }

    /**
     * The other order: the withdrawal has revoked the family and not committed when a refresh with its
     * live token comes. The refresh waits, then finds the token revoked: the ordinary refusal, not a reuse
     * (nothing was replayed), and no reuse is recorded.
     */
    @Test
    void aRotationThatWaitedForARevocationIsAnOrdinaryInvalidGrant() throws Exception {
        var client = newThirdPartyClient();
        JsonNode first = login(client);
        String refreshToken = first.get("refresh_token").asString();
        FamilyPauses.Pause pause = pauses.duringWithdrawal(client.clientId());

        Future<HttpResponse<String>> withdrawal = withdrawing(client);
        pause.awaitReached();
        Future<HttpResponse<String>> rotation = pool.submit(() -> refresh(client, refreshToken));
        FamilyPauses.awaitBlockedOrDone(jdbc, rotation);
        pause.release();

        assertThat(done(withdrawal).statusCode()).isEqualTo(302);
        assertStandardError(done(rotation), 400, "invalid_grant", RefreshTokenExchange.INVALID);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'REFRESH_REUSE_DETECTED' "
                + "and subject like ?", Integer.class, "%usuario #" + user.id() + ";%")).isZero();
        assertThat(liveRefreshTokens(familyOf(refreshToken))).isZero();
    }
}
