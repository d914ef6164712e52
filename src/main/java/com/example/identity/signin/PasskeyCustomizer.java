package com.example.identity.signin;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.webauthn.authentication.WebAuthnAuthenticationFilter;
import org.springframework.stereotype.Component;

import com.example.identity.abuse.LoginThrottle;
import com.example.identity.mfa.RecentLogin;
import com.example.identity.passkey.PasskeyRegistration;
import com.example.identity.passkey.Passkeys;

/**
 * The web chain's passkeys (passkey/): Spring Security's WebAuthn endpoints ({@code /webauthn/register/options},
 * {@code /webauthn/register}, {@code /webauthn/authenticate/options}, {@code /login/webauthn}) with this
 * service's pages and script and its login answer ({@link PasskeyLogin}); the relying party (the issuer, user
 * verification required) is passkey/PasskeyConfig's. A registration needs a recent login first
 * ({@link PasskeyRegistration}, before the {@code AuthorizationFilter}, after the chain's password change gate).
 */
@Component
public class PasskeyCustomizer {

    private final UserDetailsService users;
    private final ApplicationEventPublisher events;
    private final LoginThrottle throttle;
    private final RecentLogin recentLogin;
    private final Passkeys passkeys;
    private final Suspensions suspensions;

    PasskeyCustomizer(UserDetailsService users, ApplicationEventPublisher events, LoginThrottle throttle,
            RecentLogin recentLogin, Passkeys passkeys, Suspensions suspensions) {
        this.suspensions = suspensions;
        this.users = users;
        this.events = events;
        this.throttle = throttle;
        this.recentLogin = recentLogin;
        this.passkeys = passkeys;
    }

    public void customize(HttpSecurity http) {
        PasskeyLogin passkeyLogin = new PasskeyLogin(users, events, throttle, suspensions);
        http
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
            // before Spring's passkey registration filters (the WebAuthn configurer adds them next to the
            // AuthorizationFilter later, at build time): a recent login first, the other sessions end after
            .addFilterBefore(new PasskeyRegistration(recentLogin, passkeys, events), AuthorizationFilter.class);
    }
}
