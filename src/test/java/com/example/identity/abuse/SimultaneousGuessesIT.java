package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.Predicate;

import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.ActiveProfiles;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.WebClient;

/**
 * Simultaneous wrong guesses of one (e-mail, address) pair are evaluated no more often than the pair's budget
 * allows (issue 25): each attempt takes a unit of the throttle before its password is hashed or its code
 * checked, so the 20 guesses that arrive together get 5 evaluations, not 20. The shipped pair budget (5)
 * without the growing delays, in a context of its own.
 * <p>
 * The worst case is played, not hoped for: every evaluation of a guess (a password hash, a second step's code
 * check) is held at a {@link Gate} until each of the simultaneous attempts has either reached its own
 * evaluation or been answered without one. So no failure is counted before every attempt has passed the
 * throttle: a throttle that checks first and counts after lets all 20 through, one that takes a unit first
 * lets 5.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "identity.login.max-failures-per-pair=5", "identity.login.max-failures-per-account=100",
        "identity.login.max-failures-per-address=100", "identity.login.delay-base=0s" })
@ActiveProfiles("test")
class SimultaneousGuessesIT {

    static final int ATTEMPTS = 20;
    static final int PAIR_BUDGET = 5;
    static final String PASSWORD = "simultaneous-password-1";
    static final String GUESS = "simultaneous-guess-";
    static final Gate GATE = new Gate();

    /**
     * Holds each evaluation of an armed guess until {@code expected} attempts have each reached an evaluation,
     * been answered without one or joined the queue of attempts waiting their turn (issue 39: they are taken only
     * once an attempt ahead of them is settled), or 20 seconds have passed.
     */
    static final class Gate {
        private Predicate<Object> guess = what -> false;
        private IntSupplier queued = () -> 0;
        private int expected;
        private int evaluated;
        private int answeredWithout;

        synchronized void arm(int expected, Predicate<Object> guess, IntSupplier queued) {
            this.expected = expected;
            this.guess = guess;
            this.queued = queued;
            this.evaluated = 0;
            this.answeredWithout = 0;
        }

        synchronized int evaluated() {
            return evaluated;
        }

        synchronized void answeredWithoutEvaluation() {
            answeredWithout++;
            notifyAll();
        }

        /** Called by every evaluation: waits there when it is a guess of the armed kind. */
        synchronized void evaluating(Object what) {
            if (!guess.test(what)) {
                return;
            }
            evaluated++;
            notifyAll();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            try {
                while (evaluated + answeredWithout + queued.getAsInt() < expected) {
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        return;
                    }
                    wait(Math.min(left, 20)); // the queue's length changes without telling the gate: looked at again
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The password encoder and the second factors, with every evaluation passing the gate first. */
    @TestConfiguration(proxyBeanMethods = false)
    static class GatedEvaluations {

        @Bean
        static BeanPostProcessor gateEvaluations() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (bean instanceof PasswordEncoder encoder) {
                        return new GatedPasswordEncoder(encoder);
                    }
                    if (bean instanceof SecondFactors) {
                        MethodInterceptor gate = invocation -> {
                            if (invocation.getMethod().getName().equals("verify")) {
                                GATE.evaluating(invocation.getArguments()[0]);
                            }
                            return invocation.proceed();
                        };
                        if (bean instanceof Advised advised && !advised.isFrozen()) {
                            advised.addAdvice(0, gate); // outside the transaction: no connection held while waiting
                            return bean;
                        }
                        var proxy = new ProxyFactory(bean);
                        proxy.setProxyTargetClass(true);
                        proxy.addAdvice(gate);
                        return proxy.getProxy();
                    }
                    return bean;
                }
            };
        }
    }

    record GatedPasswordEncoder(PasswordEncoder encoder) implements PasswordEncoder {
        @Override
        public String encode(CharSequence rawPassword) {
            return encoder.encode(rawPassword);
        }

        @Override
        public boolean matches(CharSequence rawPassword, String encodedPassword) {
            GATE.evaluating(rawPassword == null ? null : rawPassword.toString());
            return encoder.matches(rawPassword, encodedPassword);
        }

        @Override
        public boolean upgradeEncoding(String encodedPassword) {
            return encoder.upgradeEncoding(encodedPassword);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    SecondFactors factors;

    @Autowired
    LoginThrottle throttle;

    @Autowired
    JdbcTemplate jdbc;

    String newAccount() {
        String email = "simultaneous-" + UUID.randomUUID() + "@example.com";
        accounts.create("Simultaneo", email, PASSWORD, Role.USER);
        return email;
    }

    /** A login POST of {@code web}, whose login page gave {@code csrf}, from {@code address}. */
    static HttpResponse<String> login(WebClient web, String csrf, String address, String email, String password) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("username", email);
        form.put("password", password);
        form.put("_csrf", csrf);
        return web.postForm("/login/", form, "X-Forwarded-For", address);
    }

    /**
     * Runs {@code attempt} 0 to {@code count - 1} on threads of their own released together; an answer that
     * {@code refused} recognises is told to the gate. The answers, in the attempts' order.
     */
    static List<HttpResponse<String>> simultaneously(int count, IntFunction<HttpResponse<String>> attempt,
            Predicate<HttpResponse<String>> refused) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            var ready = new CountDownLatch(count);
            var go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    assertThat(go.await(30, TimeUnit.SECONDS)).isTrue();
                    HttpResponse<String> answer = attempt.apply(n);
                    if (refused.test(answer)) {
                        GATE.answeredWithoutEvaluation();
                    }
                    return answer;
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (var future : futures) {
                answers.add(future.get(60, TimeUnit.SECONDS));
            }
            return answers;
        }
        finally {
            pool.shutdownNow();
        }
    }

    int auditRows(String event, String actor) {
        return jdbc.queryForObject("select count(*) from audit_events where event = ? and actor = ?", Integer.class,
                event, actor);
    }

    @Test
    void simultaneousWrongPasswordsOfOnePairHashNoMoreGuessesThanThePairsBudget() throws Exception {
        String email = newAccount();
        String address = "203.0.113.90";
        List<WebClient> browsers = new ArrayList<>();
        List<String> csrf = new ArrayList<>();
        for (int i = 0; i < ATTEMPTS; i++) {
            browsers.add(new WebClient(port));
            csrf.add(browsers.get(i).csrfFrom("/login/"));
        }
        GATE.arm(ATTEMPTS, raw -> raw instanceof String s && s.startsWith(GUESS), () -> throttle.waiting(email, address));

        List<String> answers = simultaneously(ATTEMPTS,
                i -> login(browsers.get(i), csrf.get(i), address, email, GUESS + i),
                answer -> "/login/?bloqueado=1".equals(answer.headers().firstValue("Location").orElse(null)))
                .stream().map(WebClient::location).toList();

        assertThat(GATE.evaluated()).as("wrong passwords hashed").isEqualTo(PAIR_BUDGET);
        assertThat(answers).filteredOn("/login/?error=1"::equals).hasSize(PAIR_BUDGET);
        assertThat(answers).filteredOn("/login/?bloqueado=1"::equals).hasSize(ATTEMPTS - PAIR_BUDGET);
        assertThat(auditRows("LOGIN_FAILED", email)).isEqualTo(PAIR_BUDGET);
        assertThat(auditRows("LOGIN_LOCKED", email)).as("the 5th failure locks, once").isEqualTo(1);
        assertThat(throttle.isBlocked(email, address)).isTrue();
        assertThat(WebClient.location(new WebClient(port).login(email, PASSWORD))).as("the owner from elsewhere")
                .isEqualTo("/");
    }

    @Test
    void simultaneousWrongCodesAtTheSecondStepCheckNoMoreCodesThanThePairsBudget() throws Exception {
        String email = newAccount();
        String secret = factors.newSecret();
        long id = accounts.findByEmail(email).orElseThrow().getId();
        assertThat(factors.enable(id, secret, TotpCodes.now(secret, 0))).hasSize(10);
        String wrong = ProofThrottleIT.wrongCode(secret);
        String address = "203.0.113.91";
        // 20 logins of the right password, one after another, each waiting at the second step
        List<WebClient> browsers = new ArrayList<>();
        List<String> csrf = new ArrayList<>();
        for (int i = 0; i < ATTEMPTS; i++) {
            var web = new WebClient(port);
            assertThat(WebClient.location(login(web, web.csrfFrom("/login/"), address, email, PASSWORD)))
                    .isEqualTo("/login/segundo-paso");
            browsers.add(web);
            csrf.add(web.csrfFrom("/login/segundo-paso"));
        }
        GATE.arm(ATTEMPTS, Long.valueOf(id)::equals, () -> throttle.waiting(email, address));

        List<HttpResponse<String>> answers = simultaneously(ATTEMPTS,
                i -> browsers.get(i).postForm("/login/segundo-paso", Map.of("codigo", wrong, "_csrf", csrf.get(i)),
                        "X-Forwarded-For", address),
                answer -> answer.statusCode() == 429);

        assertThat(GATE.evaluated()).as("wrong codes checked").isEqualTo(PAIR_BUDGET);
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 400).hasSize(PAIR_BUDGET);
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 429).hasSize(ATTEMPTS - PAIR_BUDGET);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'LOGIN_FAILED' and actor = ? "
                + "and subject = 'segundo factor'", Integer.class, email)).isEqualTo(PAIR_BUDGET);
        assertThat(auditRows("LOGIN_LOCKED", email)).as("the 5th failure locks, once").isEqualTo(1);
        assertThat(throttle.isBlocked(email, address)).isTrue();
        var owner = new WebClient(port);
        assertThat(WebClient.location(login(owner, owner.csrfFrom("/login/"), "198.51.100.91", email, PASSWORD)))
                .isEqualTo("/login/segundo-paso");
        HttpResponse<String> done = owner.postForm("/login/segundo-paso", Map.of("codigo", TotpCodes.now(secret, 1),
                "_csrf", owner.csrfFrom("/login/segundo-paso")), "X-Forwarded-For", "198.51.100.91");
        assertThat(WebClient.location(done)).as("the owner from elsewhere").isEqualTo("/");
    }

    /**
     * Issue 39: twelve right passwords of one pair at once all log in, waiting their turn instead of being refused
     * as locked, while twenty wrong ones of the same account from another address at the same moment still get the
     * pair's five evaluations, no more (each held at the gate until all twenty have reached an evaluation, been
     * answered, or joined the queue).
     */
    @Test
    void twelveSimultaneousRightPasswordsAllLogInBesideTwentySimultaneousWrongOnesThatGetTheBudget() throws Exception {
        String email = newAccount();
        String family = "203.0.113.92";
        String guesser = "203.0.113.93";
        int right = 12;
        List<WebClient> browsers = new ArrayList<>();
        List<String> csrf = new ArrayList<>();
        for (int i = 0; i < right + ATTEMPTS; i++) {
            browsers.add(new WebClient(port));
            csrf.add(browsers.get(i).csrfFrom("/login/"));
        }
        GATE.arm(ATTEMPTS, raw -> raw instanceof String s && s.startsWith(GUESS), () -> throttle.waiting(email, guesser));

        List<String> answers = simultaneously(right + ATTEMPTS,
                i -> i < right ? login(browsers.get(i), csrf.get(i), family, email, PASSWORD)
                        : login(browsers.get(i), csrf.get(i), guesser, email, GUESS + i),
                answer -> "/login/?bloqueado=1".equals(answer.headers().firstValue("Location").orElse(null)))
                .stream().map(WebClient::location).toList();

        assertThat(answers.subList(0, right)).as("the right passwords").containsOnly("/");
        assertThat(GATE.evaluated()).as("wrong passwords hashed").isEqualTo(PAIR_BUDGET);
        List<String> wrong = answers.subList(right, right + ATTEMPTS);
        assertThat(wrong).filteredOn("/login/?error=1"::equals).hasSize(PAIR_BUDGET);
        assertThat(wrong).filteredOn("/login/?bloqueado=1"::equals).hasSize(ATTEMPTS - PAIR_BUDGET);
        assertThat(auditRows("LOGIN_FAILED", email)).isEqualTo(PAIR_BUDGET);
        assertThat(throttle.isBlocked(email, guesser)).isTrue();
        assertThat(throttle.isBlocked(email, family)).isFalse();
        assertThat(throttle.waiting(email, family) + throttle.waiting(email, guesser)).as("nobody left in line").isZero();
    }
}
