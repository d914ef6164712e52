package com.example.identity.ops;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.observation.SecurityObservationSettings;

import com.example.identity.Endpoints;

/**
 * Operations: business metrics, the database-outage answers, and the watches they need. The servlet
 * filters run right after {@code web/RequestId} and before Spring Security: the metrics filter outermost
 * (it counts the outage's 503s too), then the outage filter.
 */
@Configuration(proxyBeanMethods = false)
class OperationsConfig {

    @Bean
    static DatabaseFailureWatch databaseFailureWatch() {
        return new DatabaseFailureWatch();
    }

    @Bean
    static TimedBeans timedBeans(ObjectProvider<MeterRegistry> registry) {
        return new TimedBeans(registry);
    }

    @Bean(destroyMethod = "close")
    DatabaseAvailability databaseAvailability(DatabaseFailureWatch watch) {
        return watch.availability();
    }

    /**
     * No Spring Security observations: with Actuator's ObservationRegistry, Spring Security wraps every
     * filter of every chain in an observation of its own, which cost most of the CPU of a
     * {@code /api/userinfo.php} call (JFR, 2026-11-24: userinfo went from about 14,000 to about 20,000
     * calls a second without them). The business counters (decisions §14) and Boot's
     * {@code http.server.requests} stay.
     */
    @Bean
    static SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    FilterRegistrationBean<EndpointMetricsFilter> endpointMetricsFilter(MeterRegistry registry) {
        var registration = new FilterRegistrationBean<>(new EndpointMetricsFilter(registry));
        registration.addUrlPatterns(Endpoints.TOKEN);
        registration.addUrlPatterns(Endpoints.API_USERINFO, Endpoints.USERINFO);
        registration.setOrder(Endpoints.ENDPOINT_METRICS_FILTER);
        return registration;
    }

    @Bean
    FilterRegistrationBean<DatabaseOutageFilter> databaseOutageFilter(DatabaseAvailability database) {
        var registration = new FilterRegistrationBean<>(new DatabaseOutageFilter(database));
        registration.setOrder(Endpoints.DATABASE_OUTAGE_FILTER);
        return registration;
    }
}
