package com.example.identity.site;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

import com.example.identity.Endpoints;
import com.example.identity.account.Role;
import com.example.identity.federation.FederatedLoginCustomizer;
import com.example.identity.oauth.logout.ConfirmedLogoutRedirect;
import com.example.identity.signin.LoginRedirectEntryPoint;
import com.example.identity.signin.PasskeyCustomizer;
import com.example.identity.signin.PasswordChangeGate;
import com.example.identity.signin.PasswordLoginCustomizer;
import com.example.identity.web.PagePolicy;

/**
 * The last chain, matches everything the others do not: the pages people use in a browser
 * ({@code /}, {@code /login/}, {@code /dashboard/**}), their static files and the error page. Form
 * login with a session and CSRF protection on every form. The password login
 * ({@link PasswordLoginCustomizer}) and the passkeys ({@link PasskeyCustomizer}) are applied in that order,
 * after the access rules and the password change gate (not {@code Customizer<HttpSecurity>} beans, which
 * Spring Security would apply to every chain).
 */
@Configuration(proxyBeanMethods = false)
class WebSecurityConfig {

    @Bean
    @Order(Endpoints.WEB_CHAIN)
    SecurityFilterChain webSecurityFilterChain(HttpSecurity http, PasswordLoginCustomizer passwordLogin,
            PasskeyCustomizer passkeys, FederatedLoginCustomizer federatedLogin, ConfirmedLogoutRedirect confirmedLogout)
            throws Exception {
        http
            .authorizeHttpRequests(authorize -> authorize
                .requestMatchers(Endpoints.HOME, Endpoints.LOGIN, Endpoints.CSS_ALL, Endpoints.JS_ALL, Endpoints.FAVICON,
                        Endpoints.ERROR).permitAll()
                // the reference of the JSON routes and Swagger UI's files (openapi/): public, like the document
                .requestMatchers(Endpoints.API_REFERENCE, Endpoints.WEBJARS_ALL).permitAll()
                // password recovery (recovery/PasswordRecoveryController): for those who cannot log in
                .requestMatchers(Endpoints.RECOVERY_REQUEST, Endpoints.RECOVERY_RESET).permitAll()
                // sign-up (registration/): for those who have no account yet; off answers 404; a parent's answer to it (minors/)
                .requestMatchers(Endpoints.REGISTRATION, Endpoints.REGISTRATION_CONFIRM, Endpoints.PARENTAL_CONSENT).permitAll()
                // login with another provider (federation/): the start, Spring Security's two steps, the proof
                // of an account before linking; the end of that proof needs the login it completes
                .requestMatchers(Endpoints.FEDERATED_START + "*", Endpoints.FEDERATED_AUTHORIZATION_ALL,
                        Endpoints.FEDERATED_REDIRECT_ALL, Endpoints.FEDERATED_LINK, Endpoints.STEAM_RETURN,
                        Endpoints.FEDERATED_BIRTH_DATE).permitAll()
                // the login's second step (signin/SecondStepController): the session is not logged in until it ends
                .requestMatchers(Endpoints.SECOND_STEP, Endpoints.SECOND_STEP_ENROL).permitAll()
                // the new address's confirmation link may be opened on any device (account/EmailChanges)
                .requestMatchers(Endpoints.ACCOUNT_EMAIL_CONFIRM).permitAll()
                // RP-initiated logout (oauth/logout/LogoutEndpoint): with or without a session
                .requestMatchers(Endpoints.LOGOUT).permitAll()
                .requestMatchers(Endpoints.ADMIN_ALL, Endpoints.ADMIN_DASHBOARD).hasAuthority(Role.ADMIN.authority().getAuthority())
                .requestMatchers(Endpoints.DASHBOARD_ALL).hasAnyAuthority(
                        Role.DEVELOPER_API.authority().getAuthority(), Role.ADMIN.authority().getAuthority())
                .anyRequest().authenticated())
            // before the AuthorizationFilter, ahead of the passkey registration's check (PasskeyCustomizer)
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class);
        passwordLogin.customize(http);
        passkeys.customize(http);
        federatedLogin.customize(http);
        http
            // the login page, or the registered address a confirmed RP-initiated logout named (checked again)
            .logout(logout -> logout
                .logoutUrl(Endpoints.SIGN_OUT)
                .logoutSuccessHandler(confirmedLogout))
            .requestCache(cache -> cache.disable())
            // A relying party's cross-site POST of a logout request carries no CSRF token: the endpoint ends a
            // session only with an id_token_hint of that user, and otherwise shows a page whose form does
            .csrf(csrf -> csrf.ignoringRequestMatchers(Endpoints.LOGOUT))
            // Sessions live in the database (session/SessionConfig): an ended session is deleted there, so no
            // per-request registry check (ConcurrentSessionFilter) is needed to refuse it on any instance.
            .exceptionHandling(ex -> ex.authenticationEntryPoint(new LoginRedirectEntryPoint()))
            .headers(headers -> headers
                // a page whose form ends at an application's address widens form-action by it (PagePolicy)
                .contentSecurityPolicy(csp -> csp.policyDirectives(PagePolicy.PAGES))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER)));
        return http.build();
    }
}
