package com.example.identity.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * The service's {@link Clock} (web/ClockConfig) in every test context: the clock it was, plus an offset a test
 * moves with {@link #advance} instead of sleeping until a rule of the service sees time pass (a token's expiry,
 * the recent-login window, a throttle's delay, {@code max_age}...). Time never goes back.
 * <p>
 * Every Spring test context gets it the same way ({@link Factory}, registered in {@code META-INF/spring.factories}
 * for all of them), so it makes no context of its own: a test autowires it as {@code MovableClock}. Contexts are
 * shared between test classes, so the offset is put back to zero after every test method ({@link Reset}).
 */
public final class MovableClock extends Clock {

    /** The bean name of the service's clock (web/ClockConfig's {@code clock()}). */
    static final String BEAN = "clock";

    private final Clock base;
    private final AtomicReference<Duration> offset;

    MovableClock(Clock base) {
        this(base, new AtomicReference<>(Duration.ZERO));
    }

    private MovableClock(Clock base, AtomicReference<Duration> offset) {
        this.base = base;
        this.offset = offset;
    }

    /** Moves this clock {@code amount} ahead of the one it wraps (on top of earlier moves). */
    public void advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("time does not go back: " + amount);
        }
        offset.accumulateAndGet(amount, Duration::plus);
    }

    /** Back to the wrapped clock's time (after each test method, by {@link Reset}). */
    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset.get());
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new MovableClock(base.withZone(zone), offset);
    }

    /** Wraps the context's {@code clock} bean. */
    public static final class Factory implements ContextCustomizerFactory {

        @Override
        public ContextCustomizer createContextCustomizer(Class<?> testClass,
                List<ContextConfigurationAttributes> configAttributes) {
            return new Customizer();
        }
    }

    /** Equal for every test class, so that it adds no context of its own to the cache. */
    private static final class Customizer implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
            context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    return BEAN.equals(beanName) && bean instanceof Clock clock && !(bean instanceof MovableClock)
                            ? new MovableClock(clock) : bean;
                }
            });
        }

        @Override
        public boolean equals(@Nullable Object other) {
            return other instanceof Customizer;
        }

        @Override
        public int hashCode() {
            return Customizer.class.hashCode();
        }
    }

    /** Puts the clock of the test's context back after each test method, whatever the test did. */
    public static final class Reset implements TestExecutionListener, Ordered {

        @Override
        public void afterTestMethod(TestContext testContext) {
            if (testContext.hasApplicationContext()) {
                ApplicationContext context = testContext.getApplicationContext();
                if (context.containsBean(BEAN) && context.getBean(BEAN) instanceof MovableClock clock) {
                    clock.reset();
                }
            }
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE; // the first listener after the test method, before any @DirtiesContext
        }
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof MovableClock that && base.equals(that.base) && offset == that.offset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(base, System.identityHashCode(offset));
    }
}
