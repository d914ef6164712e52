package com.example.identity.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.security.core.session.SessionRegistryImpl;
import org.springframework.security.web.session.HttpSessionEventPublisher;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.AccountPrincipal;

/**
 * Every login session is registered, so that disabling an account or changing its role ends that
 * user's sessions at once (each chain's {@code ConcurrentSessionFilter} then refuses them). Spring
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
            for (Object principal : registry.getAllPrincipals()) {
                if (principal instanceof AccountPrincipal account && account.id() == event.userId()) {
                    registry.getAllSessions(principal, false).forEach(session -> session.expireNow());
                }
            }
        }
    }
}
