package com.example.identity.session;

import java.util.EnumSet;

import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.session.security.SpringSessionBackedSessionRegistry;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.AccountService;
import com.example.identity.account.PasswordChanged;
import com.example.identity.common.AfterCommit;

/**
 * Login sessions live in the database (Spring Session JDBC, tables of migration V14), so any instance
 * serves any session and ending one holds on every instance (decisions §13). Spring Security's
 * {@link SessionRegistry} is a view of the same store ({@link SpringSessionBackedSessionRegistry}: it
 * finds a user's sessions by the principal-name index, and cannot list every principal). Disabling an
 * account, changing its role or resetting its password ends every session of that user; a password
 * change every other session of theirs.
 */
@Configuration(proxyBeanMethods = false)
class SessionConfig {

    /**
     * Spring Session JDBC's repository, used through {@link SessionStore} (one read per request, the last
     * access written at most once a minute). Wrapped after its initialization rather than declared as a
     * repository of its own, which would turn Boot's JDBC session auto-configuration off; its cleanup job
     * and shutdown stay with it.
     */
    @Bean
    static BeanPostProcessor sessionStoreWrapper() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof JdbcIndexedSessionRepository jdbc ? new SessionStore(jdbc) : bean;
            }
        };
    }

    /** Bounds {@link SessionStore}'s reuse of a read session to one request; runs outside Spring Session's filter. */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> sessionReadsPerRequest() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(SessionStore.requestScope());
        registration.setOrder(SessionRepositoryFilter.DEFAULT_ORDER - 1);
        registration.setDispatcherTypes(EnumSet.allOf(DispatcherType.class));
        return registration;
    }

    @Bean
    <S extends Session> SessionRegistry sessionRegistry(FindByIndexNameSessionRepository<S> sessions) {
        return new SpringSessionBackedSessionRegistry<>(sessions);
    }

    @Bean
    SessionTerminator sessionTerminator(FindByIndexNameSessionRepository<? extends Session> sessions,
            AccountService accounts) {
        return new SessionTerminator(sessions, accounts);
    }

    /**
     * Ends every session of an account that was disabled or changed role (and, through the same event,
     * any other change that must log the user out): the rows are deleted, so the next request on any
     * instance finds no session and is sent to the login page. Deleted now and again once the change
     * commits, so that a login racing with the change cannot keep a session made before it.
     */
    static final class SessionTerminator {

        private final FindByIndexNameSessionRepository<? extends Session> sessions;
        private final AccountService accounts;

        SessionTerminator(FindByIndexNameSessionRepository<? extends Session> sessions, AccountService accounts) {
            this.sessions = sessions;
            this.accounts = accounts;
        }

        @EventListener
        void onAccountChanged(AccountChanged event) {
            accounts.findById(event.userId()).ifPresent(account -> AfterCommit.nowAndAfterCompletion(
                    () -> end(account.getCorreo(), null)));
        }

        /** A new password: every other session of the account ends, the one that changed it stays. */
        @TransactionalEventListener(fallbackExecution = true)
        void onPasswordChanged(PasswordChanged event) {
            end(event.correo(), event.keepSessionId());
        }

        private void end(String correo, String keepSessionId) {
            sessions.findByPrincipalName(correo).keySet().stream()
                    .filter(id -> !id.equals(keepSessionId))
                    .forEach(sessions::deleteById);
        }
    }
}
