package com.example.identity.oauth.token;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.audit.AuditEvent;

/**
 * Test-only pause points inside the transactions that work on a refresh family, so that a race between
 * them is played in one fixed order instead of hoped for. Nothing pauses unless a test arms a point, and
 * each armed point pauses once. Part of every OAuth test's context ({@link OAuthTestBase}).
 *
 * <ul>
 * <li>{@link #duringRotation}: a refresh of that family stops when its new access token is generated,
 * after the rotation's conditional UPDATE of the presented token and before the new tokens are stored
 * (the wrapped bean is the token generator the refresh grant uses inside its transaction).</li>
 * <li>{@link #duringWithdrawal}: a consent withdrawal for that application stops when it records the
 * withdrawal, after its revocations and before its commit (a synchronous listener of the audit event,
 * which is published inside the withdrawal's transaction).</li>
 * </ul>
 */
@TestConfiguration(proxyBeanMethods = false)
public class FamilyPauses {

    public static final long TIMEOUT_SECONDS = 30;

    private final AtomicReference<@Nullable Armed> rotation = new AtomicReference<>();
    private final AtomicReference<@Nullable Armed> withdrawal = new AtomicReference<>();

    /** One pause: the paused thread says it arrived, and waits (bounded) for the test to release it. */
    public static final class Pause {

        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        void park() {
            reached.countDown();
            try {
                if (!released.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("a paused transaction was never released");
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** Waits until the armed work reached the pause. */
        public void awaitReached() throws InterruptedException {
            if (!reached.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the armed work never reached its pause");
            }
        }

        public void release() {
            released.countDown();
        }
    }

    private record Armed(String key, Pause pause) {
    }

    /** The next refresh of family {@code authorizationId} pauses between its rotation and its new tokens. */
    public Pause duringRotation(String authorizationId) {
        var pause = new Pause();
        rotation.set(new Armed(authorizationId, pause));
        return pause;
    }

    /** The next withdrawal of a consent to {@code clientId} pauses after its revocations, before its commit. */
    public Pause duringWithdrawal(String clientId) {
        var pause = new Pause();
        withdrawal.set(new Armed(clientId, pause));
        return pause;
    }

    private static void parkIf(AtomicReference<@Nullable Armed> point, String key) {
        Armed armed = point.get();
        if (armed != null && armed.key().equals(key) && point.compareAndSet(armed, null)) {
            armed.pause().park();
        }
    }

    void generating(OAuth2TokenContext context) {
        if (OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())
                && AuthorizationGrantType.REFRESH_TOKEN.equals(context.getAuthorizationGrantType())
                && context.getAuthorization() != null) {
            parkIf(rotation, context.getAuthorization().getId());
        }
    }

    @EventListener
    void recorded(AuditEvent event) {
        if (event.type() == AuditEvent.Type.CONSENT_WITHDRAWN) {
            Armed armed = withdrawal.get();
            if (armed != null && event.subject().startsWith(armed.key() + " de usuario #")) {
                parkIf(withdrawal, armed.key());
            }
        }
    }

    /** The token generator of the application, with {@link #duringRotation}'s pause point in front of it. */
    @Bean
    static BeanPostProcessor pausingTokenGenerator(ObjectProvider<FamilyPauses> pauses) {
        return new BeanPostProcessor() {
            @Override
            @SuppressWarnings("unchecked")
            public Object postProcessAfterInitialization(Object bean, String name) {
                if ("tokenGenerator".equals(name) && bean instanceof OAuth2TokenGenerator<?> generator) {
                    return new PausingTokenGenerator((OAuth2TokenGenerator<OAuth2Token>) generator, pauses);
                }
                return bean;
            }
        };
    }

    static final class PausingTokenGenerator implements OAuth2TokenGenerator<OAuth2Token> {

        private final OAuth2TokenGenerator<OAuth2Token> delegate;
        private final ObjectProvider<FamilyPauses> pauses;

        PausingTokenGenerator(OAuth2TokenGenerator<OAuth2Token> delegate, ObjectProvider<FamilyPauses> pauses) {
            this.delegate = delegate;
            this.pauses = pauses;
        }

        @Override
        public @Nullable OAuth2Token generate(OAuth2TokenContext context) {
            pauses.getObject().generating(context);
            return delegate.generate(context);
        }
    }

    /**
     * Waits until {@code other} is blocked on a database lock (a session of this database waits for one)
     * or finished: what the test releases a pause after. Bounded.
     */
    public static void awaitBlockedOrDone(JdbcTemplate jdbc, Future<?> other) throws InterruptedException {
        String product = jdbc.execute((java.sql.Connection c) -> c.getMetaData().getDatabaseProductName());
        String waiting = "PostgreSQL".equals(product)
                ? "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
                : "select count(*) from information_schema.sessions where blocker_id is not null";
        await("blocked on a lock or finished").atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5)).until(() -> {
                    if (other.isDone()) {
                        return true;
                    }
                    Integer blocked = jdbc.queryForObject(waiting, Integer.class);
                    return blocked != null && blocked > 0;
                });
    }
}
