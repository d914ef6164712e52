package com.example.identity.ops;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;

import com.example.identity.Endpoints;
import com.example.identity.web.RestrictiveHeaders;

/**
 * The chain of the operations endpoints, before the API and web chains: the probes {@code /livez} and
 * {@code /readyz} on the service's port (Spring Boot's liveness and readiness groups, status only, for
 * anyone: a load balancer has no credentials) and the actuator under {@code /actuator/} on the management
 * port, which is bound to 127.0.0.1 unless configured otherwise (on the service's port nothing answers
 * there: 404). GET only as far as the endpoints go; no session is read or created, no CSRF (nothing
 * changes state), no login redirect.
 */
@Configuration(proxyBeanMethods = false)
class OperationsSecurityConfig {


    @Bean
    @Order(Endpoints.OPERATIONS_CHAIN)
    SecurityFilterChain operationsSecurityFilterChain(HttpSecurity http) throws Exception {
        http
            .securityMatcher(Endpoints.LIVEZ, Endpoints.READYZ, Endpoints.ACTUATOR, Endpoints.ACTUATOR_ALL)
            .authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
            .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
            .securityContext(context -> context.requireExplicitSave(true))
            .csrf(csrf -> csrf.disable())
            .requestCache(cache -> cache.disable())
            .anonymous(anonymous -> anonymous.disable())
            .formLogin(form -> form.disable())
            .httpBasic(basic -> basic.disable())
            .logout(logout -> logout.disable())
            .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(RestrictiveHeaders.CONTENT_SECURITY_POLICY)));
        return http.build();
    }
}
