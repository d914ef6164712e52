package com.example.identity.web;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.security.web.webauthn.authentication.WebAuthnAuthenticationFilter;

import com.example.identity.Endpoints;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.abuse.LoginThrottleFilter;
import com.example.identity.account.PasswordChangeGate;
import com.example.identity.account.PasswordLogin;
import com.example.identity.account.Role;
import com.example.identity.login.LoginFailureHandler;
import com.example.identity.login.LoginRedirectEntryPoint;
import com.example.identity.login.LoginSuccessHandler;
import com.example.identity.mfa.RecentLogin;
import com.example.identity.mfa.SecondStep;
import com.example.identity.oauth.ConfirmedLogoutRedirect;
import com.example.identity.passkey.PasskeyLogin;
import com.example.identity.passkey.PasskeyRegistration;
import com.example.identity.passkey.Passkeys;

/**
 * The last chain, matches everything the others do not: the pages people use in a browser
 * ({@code /}, {@code /login/}, {@code /dashboard/**}), their static files and the error page. Form
 * login with a session and CSRF protection on every form.
 */
@Configuration(proxyBeanMethods = false)
class WebSecurityConfig {

    @Bean
    @Order(Endpoints.WEB_CHAIN)
    SecurityFilterChain webSecurityFilterChain(HttpSecurity http, LoginThrottle throttle,
            ApplicationEventPublisher events, UserDetailsService users, PasswordEncoder passwordEncoder,
            SecondStep secondStep, RecentLogin recentLogin, Passkeys passkeys,
            ConfirmedLogoutRedirect confirmedLogout) throws Exception {
        PasskeyLogin passkeyLogin = new PasskeyLogin(users, events, throttle);
        http
            .authenticationManager(PasswordLogin.manager(users, passwordEncoder))
            .authorizeHttpRequests(authorize -> authorize
                .requestMatchers(Endpoints.HOME, Endpoints.LOGIN, Endpoints.CSS_ALL, Endpoints.JS_ALL, Endpoints.FAVICON,
                        Endpoints.ERROR).permitAll()
                // password recovery (recovery/PasswordRecoveryController): for those who cannot log in
                .requestMatchers(Endpoints.RECOVERY_REQUEST, Endpoints.RECOVERY_RESET).permitAll()
                // the login's second step (mfa/SecondStepController): the session is not logged in until it ends
                .requestMatchers(Endpoints.SECOND_STEP, Endpoints.SECOND_STEP_ENROL).permitAll()
                // the new address's confirmation link may be opened on any device (account/EmailChanges)
                .requestMatchers(Endpoints.ACCOUNT_EMAIL_CONFIRM).permitAll()
                // RP-initiated logout (oauth/LogoutEndpoint): with or without a session
                .requestMatchers(Endpoints.LOGOUT).permitAll()
                .requestMatchers(Endpoints.ADMIN_ALL, Endpoints.ADMIN_DASHBOARD).hasAuthority(Role.ADMIN.authority().getAuthority())
                .requestMatchers(Endpoints.DASHBOARD_ALL).hasAnyAuthority(
                        Role.DEVELOPER_API.authority().getAuthority(), Role.ADMIN.authority().getAuthority())
                .anyRequest().authenticated())
            .formLogin(form -> form
                .loginPage(Endpoints.LOGIN)
                .loginProcessingUrl(Endpoints.LOGIN)
                .usernameParameter("username")
                .passwordParameter("password")
                .successHandler(new LoginSuccessHandler(throttle, events, secondStep))
                .failureHandler(new LoginFailureHandler(throttle, events))
                .permitAll())
            // passkeys (passkey/): Spring Security's WebAuthn endpoints (/webauthn/register/options,
            // /webauthn/register, /webauthn/authenticate/options, /login/webauthn) with this service's pages
            // and script; the relying party (the issuer, user verification required) is passkey/PasskeyConfig's
            .webAuthn(webAuthn -> webAuthn
                .disableDefaultRegistrationPage(true)
                .withObjectPostProcessor(new ObjectPostProcessor<WebAuthnAuthenticationFilter>() {
                    @Override
                    public <O extends WebAuthnAuthenticationFilter> O postProcess(O filter) {
                        filter.setAuthenticationSuccessHandler(passkeyLogin);
                        filter.setAuthenticationFailureHandler(passkeyLogin);
                        return filter;
                    }
                }))
            // the login page, or the registered address a confirmed RP-initiated logout named (checked again)
            .logout(logout -> logout
                .logoutUrl(Endpoints.SIGN_OUT)
                .logoutSuccessHandler(confirmedLogout))
            .requestCache(cache -> cache.disable())
            // A relying party's cross-site POST of a logout request carries no CSRF token: the endpoint ends a
            // session only with an id_token_hint of that user, and otherwise shows a page whose form does
            .csrf(csrf -> csrf.ignoringRequestMatchers(Endpoints.LOGOUT))
            // Sessions live in the database (SessionConfig): an ended session is deleted there, so no
            // per-request registry check (ConcurrentSessionFilter) is needed to refuse it on any instance.
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class)
            .addFilterBefore(new LoginThrottleFilter(throttle), UsernamePasswordAuthenticationFilter.class)
            // before Spring's passkey registration filters (the WebAuthn configurer adds them next to the
            // AuthorizationFilter later, at build time): a recent login first, the other sessions end after
            .addFilterBefore(new PasskeyRegistration(recentLogin, passkeys, events), AuthorizationFilter.class)
            .exceptionHandling(ex -> ex.authenticationEntryPoint(new LoginRedirectEntryPoint()))
            .headers(headers -> headers
                // a page whose form ends at an application's address widens form-action by it (PagePolicy)
                .contentSecurityPolicy(csp -> csp.policyDirectives(PagePolicy.PAGES))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER)));
        return http.build();
    }
}
