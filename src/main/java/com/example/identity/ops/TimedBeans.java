package com.example.identity.ops;

import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Times the two costly operations of the service without touching the features that use them, by
 * wrapping their beans: the password encoder ({@code identity_password_hash_seconds{operation}}, encode
 * or verify: one Argon2id hash, the wait for a hashing thread included) and the JWT encoder
 * ({@code identity_jwt_signature_seconds}: one RS256 id_token signature with its serialisation). The
 * registry is looked up at first use, so it is not created early for this post-processor.
 */
class TimedBeans implements BeanPostProcessor, PriorityOrdered {

    static final String PASSWORD_HASH = "identity.password.hash";
    static final String JWT_SIGNATURE = "identity.jwt.signature";

    private final ObjectProvider<MeterRegistry> registry;

    TimedBeans(ObjectProvider<MeterRegistry> registry) {
        this.registry = registry;
    }

    /**
     * First among the post-processors, so that whatever wraps these beans later (a test's Mockito spy, a
     * proxy) wraps the timed bean and still sees every call.
     */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof PasswordEncoder encoder && !(bean instanceof TimedPasswordEncoder)) {
            return new TimedPasswordEncoder(encoder, new LazyTimer(registry, PASSWORD_HASH, "operation", "encode"),
                    new LazyTimer(registry, PASSWORD_HASH, "operation", "verify"));
        }
        if (bean instanceof JwtEncoder encoder && !(bean instanceof TimedJwtEncoder)) {
            return new TimedJwtEncoder(encoder, new LazyTimer(registry, JWT_SIGNATURE, null, null));
        }
        return bean;
    }

    /** A timer registered on first use. */
    static final class LazyTimer implements Supplier<Timer> {

        private final ObjectProvider<MeterRegistry> registry;
        private final String name;
        private final String tag;
        private final String value;
        private volatile Timer timer;

        LazyTimer(ObjectProvider<MeterRegistry> registry, String name, String tag, String value) {
            this.registry = registry;
            this.name = name;
            this.tag = tag;
            this.value = value;
        }

        @Override
        public Timer get() {
            Timer t = timer;
            if (t == null) {
                var builder = Timer.builder(name);
                if (tag != null) {
                    builder.tag(tag, value);
                }
                t = builder.register(registry.getObject());
                timer = t;
            }
            return t;
        }
    }

    record TimedPasswordEncoder(PasswordEncoder delegate, LazyTimer encodes, LazyTimer verifications)
            implements PasswordEncoder {

        @Override
        public String encode(CharSequence rawPassword) {
            return encodes.get().record(() -> delegate.encode(rawPassword));
        }

        @Override
        public boolean matches(CharSequence rawPassword, String encodedPassword) {
            Boolean matched = verifications.get().record(() -> delegate.matches(rawPassword, encodedPassword));
            return Boolean.TRUE.equals(matched);
        }

        @Override
        public boolean upgradeEncoding(String encodedPassword) {
            return delegate.upgradeEncoding(encodedPassword);
        }

        @Override
        public String toString() {
            return "Timed(" + delegate + ")";
        }
    }

    record TimedJwtEncoder(JwtEncoder delegate, LazyTimer signatures) implements JwtEncoder {

        @Override
        public Jwt encode(JwtEncoderParameters parameters) {
            return signatures.get().record(() -> delegate.encode(parameters));
        }
    }
}
