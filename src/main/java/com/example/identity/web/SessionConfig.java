package com.example.identity.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.security.core.session.SessionRegistryImpl;
import org.springframework.security.web.session.HttpSessionEventPublisher;
import org.springframework.transaction.event.TransactionalEventListener;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.PasswordChanged;

/**
 * Every login session is registered, so that disabling an account, changing its role or resetting its
 * password ends that user's sessions at once, and a password change every other session of theirs (each chain's {@code ConcurrentSessionFilter} then refuses them). Spring
 * Authorization Server's OpenID Connect support uses the same registry.
 */
@Configuration(proxyBeanMethods = false)
class SessionConfig {

    @Bean
    SessionRegistry sessionRegistry() {
        return new SessionRegistryImpl();
    }

    /** Tells the registry when the servlet container destroys a session. */
    @Bean
    HttpSessionEventPublisher httpSessionEventPublisher() {
        return new HttpSessionEventPublisher();
    }

    @Bean
    SessionTerminator sessionTerminator(SessionRegistry registry) {
        return new SessionTerminator(registry);
    }

    /** Expires every session of an account that was disabled or changed role. */
    static final class SessionTerminator {

        private final SessionRegistry registry;

        SessionTerminator(SessionRegistry registry) {
            this.registry = registry;
        }

        @EventListener
        void onAccountChanged(AccountChanged event) {
            expire(event.userId(), null);
        }

        /** A new password: every other session of the account ends, the one that changed it stays. */
        @TransactionalEventListener(fallbackExecution = true)
        void onPasswordChanged(PasswordChanged event) {
            expire(event.userId(), event.keepSessionId());
        }

        private void expire(long userId, String keepSessionId) {
            for (Object principal : registry.getAllPrincipals()) {
                if (principal instanceof AccountPrincipal account && account.id() == userId) {
                    registry.getAllSessions(principal, false).stream()
                            .filter(session -> !session.getSessionId().equals(keepSessionId))
                            .forEach(session -> session.expireNow());
                }
            }
        }
    }
}
