package com.example.identity.backchannel;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.Endpoints;

/**
 * {@link SidRecordingFilter} on the authorization endpoint, after Spring Session's filter (so the session is the
 * shared one) and before Spring Security's (so it sees the endpoint's redirect).
 */
@Configuration(proxyBeanMethods = false)
class BackChannelConfig {

    /** Spring Security's filter chain runs at -100 (SecurityProperties.DEFAULT_FILTER_ORDER). */
    static final int ORDER = -200;

    @Bean
    FilterRegistrationBean<SidRecordingFilter> sidRecording(JdbcTemplate jdbc, LogoutSessions sessions) {
        var registration = new FilterRegistrationBean<>(new SidRecordingFilter(jdbc, sessions));
        registration.addUrlPatterns(Endpoints.AUTHORIZE);
        registration.setOrder(ORDER);
        return registration;
    }
}
