package com.example.identity.training;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.crypto.Secrets;

/**
 * The training run of {@code bin/identity-service prepare} (issue 32): with {@code identity.training.enabled=true}
 * the service, once ready, sends itself the traffic it will serve (a password login, then the code flow with its
 * exchange, UserInfo, a refresh, {@code /api/userinfo.php}), from a few threads for
 * {@code identity.training.length} (30 s by default: see {@link TrainingSettings}), then exits. The JDK records
 * the run: on Java 25 its AOT cache ({@code -XX:AOTCacheOutput}) then holds the classes loaded and linked
 * <em>and</em> the method profiles of these hot paths (JEP 483, 514, 515), so a node started from it sends them to
 * C2 at their first calls instead of after thousands of profiled ones.
 *
 * <p>The launcher runs it on a throw-away in-memory database (never the operator's database: the run makes accounts
 * and applications, logs in and issues tokens), with the operator's other settings. Every loop is bounded in count
 * and time.
 */
@Component
@ConditionalOnBooleanProperty("identity.training.enabled")
class TrainingRun {

    private static final Logger log = LoggerFactory.getLogger(TrainingRun.class);
    private static final int THREADS = 4;
    private static final int MAX_FLOWS_PER_THREAD = 20_000;

    private final WebServerApplicationContext context;
    private final TrainingSettings settings;
    private final AccountService accounts;
    private final ClientService clients;

    TrainingRun(WebServerApplicationContext context, TrainingSettings settings, AccountService accounts,
            ClientService clients) {
        this.context = context;
        this.settings = settings;
        this.accounts = accounts;
        this.clients = clients;
    }

    /** What a run did: flows completed and failed. */
    record Result(int flows, int failures) {
    }

    @EventListener(ApplicationReadyEvent.class)
    void trainThenExit() {
        Result result = train();
        log.info("training run: {} flows, {} failed; exiting so that the JDK writes its class cache", result.flows(),
                result.failures());
        int code = SpringApplication.exit(context, () -> 0);
        System.exit(code);
    }

    /** The traffic, from {@link #THREADS} browsers, until the run's length is over (each bounded in flows too). */
    Result train() {
        int port = context.getWebServer().getPort();
        Duration length = settings.length();
        if (length.isZero() || length.isNegative()) {
            return new Result(0, 0); // the start alone (the default): no accounts, no traffic
        }
        Instant end = Instant.now().plus(length);
        AtomicInteger flows = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        log.info("training run: {} s of logins, code flows, exchanges, UserInfo and refreshes against port {}",
                length.toSeconds(), port);
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            TrainingClient.Applications applications = applications();
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                // an account of its own per browser, its password random and never shown
                String email = "entrenamiento-" + t + "-" + Secrets.randomHex(4) + "@training.invalid";
                String password = Secrets.randomUrlSafe(24);
                accounts.create("Entrenamiento " + t, email, password, Role.USER);
                var client = new TrainingClient(port, email, password, applications);
                running.add(threads.submit(() -> train(client, end, flows, failures)));
            }
            for (Future<?> future : running) {
                future.get();
            }
        }
        catch (Exception e) {
            log.warn("training run stopped early: {}", e.toString());
        }
        finally {
            threads.shutdownNow();
        }
        return new Result(flows.get(), failures.get());
    }

    /** A web and a native application, first-party (no consent page), owned by the first account. */
    private TrainingClient.Applications applications() {
        long owner = accounts.create("Entrenamiento", "entrenamiento-" + Secrets.randomHex(4) + "@training.invalid",
                Secrets.randomUrlSafe(24), Role.DEVELOPER_API).getId();
        Caller admin = new Caller(0, true);
        var web = clients.register(owner, "Entrenamiento web", TrainingClient.Applications.WEB_REDIRECT);
        var app = clients.register(owner, "Entrenamiento nativa", TrainingClient.Applications.NATIVE_REDIRECT, List.of(),
                ClientType.NATIVE);
        clients.setFirstParty(admin, web.clientId(), true);
        clients.setFirstParty(admin, app.clientId(), true);
        return new TrainingClient.Applications(web.clientId(), web.clientSecret(), app.clientId());
    }

    private static void train(TrainingClient client, Instant end, AtomicInteger flows, AtomicInteger failures) {
        for (int i = 0; i < MAX_FLOWS_PER_THREAD && Instant.now().isBefore(end); i++) {
            try {
                // a fresh password login now and then (Argon2id dominates it: a few are enough to train)
                if (i % 50 == 0) {
                    client.logIn();
                }
                client.webFlow();
                if (i % 4 == 0) {
                    client.nativeFlow();
                }
                flows.incrementAndGet();
            }
            catch (Exception e) {
                if (failures.incrementAndGet() <= 3) {
                    log.warn("training flow failed: {}", e.toString());
                }
            }
        }
    }
}
