package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;

/** Many parallel exchanges of one code: exactly one success, on whichever database the run uses. */
class CodeExchangeConcurrencyIT extends OAuthTestBase {

    static final int PARALLEL = 24;

    @RepeatedTest(3)
    void parallelExchangesOfOneCodeGiveExactlyOneSuccess() throws Exception {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        try {
            for (int i = 0; i < PARALLEL; i++) {
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return exchange(client, code);
                }));
            }
            start.countDown();
            int ok = 0;
            int reused = 0;
            for (var result : results) {
                HttpResponse<String> response = result.get(60, TimeUnit.SECONDS);
                if (response.statusCode() == 200) {
                    ok++;
                }
                else {
                    TokenEndpointIT.assertError(response, 400, "Código ya utilizado");
                    reused++;
                }
            }
            assertThat(ok).isEqualTo(1);
            assertThat(reused).isEqualTo(PARALLEL - 1);
            // the authorization, which nothing needs after the exchange, went with it (decisions D48); the one token
            // issued names it by the code's digest, and the losers' reuse revoked it
            String digest = com.example.identity.crypto.Secrets.sha256Hex(code);
            assertThat(jdbc.queryForObject("select count(*) from oauth_authorizations where id = ?", Integer.class, digest))
                    .isZero();
            assertThat(jdbc.queryForObject("select count(*) from api_tokens where authorization_id = ?", Integer.class,
                    digest)).isEqualTo(1);
        }
        finally {
            pool.shutdownNow();
        }
    }
}
