package com.example.identity.bench;

import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Profile;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;
import com.example.identity.crypto.Secrets;

/**
 * The benchmark's data, with the {@code bench} profile: fifty benchmark users
 * {@code bench001..bench050@example.com} with password {@value #PASSWORD} and the application
 * {@code bench-app} / {@code bench-secret} with redirect URI {@value #REDIRECT_URI}, on an empty
 * benchmark database; the game server {@code bench-server} / {@code bench-server-secret}; and the native application
 * {@code bench-launcher}, which accepts guests.
 *
 * <p>Not part of the service: this source set ({@code src/bench/java}) is never in the production jar.
 * {@code .ci/bench-server} compiles this class against the extracted jar and puts it on the class path of
 * the benchmark's server only; the Gatling simulation beside it runs in Maven's {@code benchmark} profile.
 */
@Component
@Profile("bench")
@Order(10)
class BenchmarkData implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(BenchmarkData.class);
    static final String PASSWORD = "bench-password-123";
    static final String REDIRECT_URI = "http://127.0.0.1:9999/callback";
    static final String CLIENT_ID = "bench-app";
    static final String CLIENT_SECRET = "bench-secret";
    /** A game server (decisions §21) for the client-credentials scenario. */
    static final String SERVER_ID = "bench-server";
    static final String SERVER_SECRET = "bench-server-secret";
    /** A native application that accepts guests (decisions §24), for the guests scenario. */
    static final String LAUNCHER_ID = "bench-launcher";

    private final AccountService accounts;
    private final ClientService clients;
    private final JdbcTemplate jdbc;

    BenchmarkData(AccountService accounts, ClientService clients, JdbcTemplate jdbc) {
        this.accounts = accounts;
        this.clients = clients;
        this.jdbc = jdbc;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (accounts.findByEmail("bench001@example.com").isEmpty()) {
            long owner = accounts.findByEmail("dev@example.com")
                    .orElseGet(() -> accounts.create("Diego", "dev@example.com", "dev-demo-password", Role.DEVELOPER_API))
                    .getId();
            // one hash per core at a time (the password encoder's pool): about half a second for fifty
            IntStream.rangeClosed(1, 50).parallel().forEach(i ->
                    accounts.create("Bench " + i, "bench%03d@example.com".formatted(i), PASSWORD, Role.USER));
            // registered as any application is, then given the fixed id and secret the load generators use
            String registered = clients.register(owner, "Benchmark", REDIRECT_URI).clientId();
            // first-party, like the demo application: the sso-code scenario measures logins, not consent pages
            jdbc.update("update oauth_clients set client_id = ?, secret_digest = ?, first_party = true where client_id = ?",
                    CLIENT_ID, Secrets.sha256Hex(CLIENT_SECRET), registered);
            String server = clients.register(owner, "Benchmark server", null, java.util.List.of(), ClientType.SERVER)
                    .clientId();
            jdbc.update("update oauth_clients set client_id = ?, secret_digest = ? where client_id = ?",
                    SERVER_ID, Secrets.sha256Hex(SERVER_SECRET), server);
            String launcher = clients.register(owner, "Benchmark launcher", "http://127.0.0.1/bench-launcher",
                    java.util.List.of(), ClientType.NATIVE, null, SenderConstraints.NONE, true).clientId();
            jdbc.update("update oauth_clients set client_id = ? where client_id = ?", LAUNCHER_ID, launcher);
        }
        // .ci/bench waits for this line before sending load
        log.warn("BENCHMARK DATA ready: bench001..bench050@example.com and the application bench-app (bench profile)");
    }
}
