package com.example.identity.session;

import java.util.EnumSet;

import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.session.security.SpringSessionBackedSessionRegistry;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Login sessions live in the database (Spring Session JDBC, tables of migration V14), so any instance
 * serves any session and ending one holds on every instance (decisions §13). Spring Security's
 * {@link SessionRegistry} is a view of the same store ({@link SpringSessionBackedSessionRegistry}: it
 * finds a user's sessions by the principal-name index, and cannot list every principal). Disabling an
 * account, changing its role or resetting its password ends every session of that user; a password
 * change every other session of theirs: {@code account/SessionTerminator}, which listens to the account's
 * events (this package imports no feature).
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
    static BeanPostProcessor sessionStoreWrapper(ApplicationEventPublisher events) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof JdbcIndexedSessionRepository jdbc ? new SessionStore(jdbc, events) : bean;
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
}
