package com.example.identity.web;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

import com.example.identity.account.Role;
import com.example.identity.login.LoginFailureHandler;
import com.example.identity.login.LoginRedirectEntryPoint;
import com.example.identity.login.LoginSuccessHandler;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.abuse.LoginThrottleFilter;
import com.example.identity.account.PasswordChangeGate;
import com.example.identity.account.PasswordLogin;

/**
 * The last chain, matches everything the others do not: the pages people use in a browser
 * ({@code /}, {@code /login/}, {@code /dashboard/**}), their static files and the error page. Form
 * login with a session and CSRF protection on every form.
 */
@Configuration(proxyBeanMethods = false)
class WebSecurityConfig {

    @Bean
    @Order(4)
    SecurityFilterChain webSecurityFilterChain(HttpSecurity http, LoginThrottle throttle,
            ApplicationEventPublisher events, UserDetailsService users, PasswordEncoder passwordEncoder) throws Exception {
        http
            .authenticationManager(PasswordLogin.manager(users, passwordEncoder))
            .authorizeHttpRequests(authorize -> authorize
                .requestMatchers("/", "/login/", "/css/**", "/js/**", "/favicon.ico", "/error").permitAll()
                // RP-initiated logout (oauth/LogoutEndpoint): with or without a session
                .requestMatchers("/oauth/logout.php").permitAll()
                .requestMatchers("/dashboard/admin/**", "/dashboard/admin.php").hasAuthority(Role.ADMIN.authority().getAuthority())
                .requestMatchers("/dashboard/**").hasAnyAuthority(
                        Role.DEVELOPER_API.authority().getAuthority(), Role.ADMIN.authority().getAuthority())
                .anyRequest().authenticated())
            .formLogin(form -> form
                .loginPage("/login/")
                .loginProcessingUrl("/login/")
                .usernameParameter("username")
                .passwordParameter("password")
                .successHandler(new LoginSuccessHandler(throttle, events))
                .failureHandler(new LoginFailureHandler(throttle, events))
                .permitAll())
            .logout(logout -> logout
                .logoutUrl("/logout")
                .logoutSuccessUrl("/login/?logout"))
            .requestCache(cache -> cache.disable())
            // A relying party's cross-site POST of a logout request carries no CSRF token: the endpoint ends a
            // session only with an id_token_hint of that user, and otherwise shows a page whose form does
            .csrf(csrf -> csrf.ignoringRequestMatchers("/oauth/logout.php"))
            // Sessions live in the database (SessionConfig): an ended session is deleted there, so no
            // per-request registry check (ConcurrentSessionFilter) is needed to refuse it on any instance.
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class)
            .addFilterBefore(new LoginThrottleFilter(throttle), UsernamePasswordAuthenticationFilter.class)
            .exceptionHandling(ex -> ex.authenticationEntryPoint(new LoginRedirectEntryPoint()))
            .headers(headers -> headers
                .contentSecurityPolicy(csp -> csp.policyDirectives(
                        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER)));
        return http.build();
    }
}
