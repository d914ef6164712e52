package com.example.identity.signin;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.abuse.LoginThrottleFilter;
import com.example.identity.account.PasswordLogin;

/**
 * The web chain's password login at {@code /login/}: the accounts and their Argon2id hashes
 * ({@link PasswordLogin}, and after the password a sanction's refusal, {@link Suspensions}), the form, its answers
 * (the second step or the page asked for; the failure counted) and the login throttle in front of every password
 * form ({@link LoginThrottleFilter}).
 */
@Component
public class PasswordLoginCustomizer {

    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;
    private final UserDetailsService users;
    private final PasswordEncoder passwordEncoder;
    private final SecondStep secondStep;
    private final Suspensions suspensions;

    PasswordLoginCustomizer(LoginThrottle throttle, ApplicationEventPublisher events, UserDetailsService users,
            PasswordEncoder passwordEncoder, SecondStep secondStep, Suspensions suspensions) {
        this.suspensions = suspensions;
        this.throttle = throttle;
        this.events = events;
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.secondStep = secondStep;
    }

    public void customize(HttpSecurity http) {
        http
            .authenticationManager(manager())
            .formLogin(form -> form
                .loginPage(Endpoints.LOGIN)
                .loginProcessingUrl(Endpoints.LOGIN)
                .usernameParameter("username")
                .passwordParameter("password")
                .successHandler(new LoginSuccessHandler(throttle, events, secondStep))
                .failureHandler(new LoginFailureHandler(throttle, events, suspensions))
                .permitAll())
            .addFilterBefore(new LoginThrottleFilter(throttle), UsernamePasswordAuthenticationFilter.class);
    }

    /** The password's authentication, for the chain (and federation/'s, which puts other providers in front). */
    public AuthenticationManager manager() {
        return PasswordLogin.manager(users, passwordEncoder, suspensions::afterPassword);
    }
}
