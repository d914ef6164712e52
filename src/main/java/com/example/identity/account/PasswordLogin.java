package com.example.identity.account;

import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AccountStatusUserDetailsChecker;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.core.userdetails.UserDetailsChecker;
import org.springframework.security.core.userdetails.UserDetailsPasswordService;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The authentication of the login form: Spring Security's {@link DaoAuthenticationProvider} (an unknown
 * e-mail is hashed against a dummy), with every account-status check (disabled, expired one-time
 * password) moved after the password hash. The stock provider checks {@code enabled} first and answers
 * a disabled account without hashing: faster, so the response time told which accounts are disabled.
 * Every failure gets the same answer from the failure handler.
 */
public final class PasswordLogin {

    private PasswordLogin() {
    }

    public static AuthenticationManager manager(UserDetailsService users, PasswordEncoder passwordEncoder) {
        return manager(users, passwordEncoder, user -> {
        });
    }

    /**
     * The same, with {@code afterPassword} run after the account-status checks, once the password is proved (a
     * sanction's refusal, signin/Suspensions: shown only to whoever knows the password).
     */
    public static AuthenticationManager manager(UserDetailsService users, PasswordEncoder passwordEncoder,
            UserDetailsChecker afterPassword) {
        var provider = new DaoAuthenticationProvider(users);
        provider.setPasswordEncoder(passwordEncoder);
        provider.setPreAuthenticationChecks(user -> {
            // nothing before the hash: see the class comment
        });
        var statusChecks = new AccountStatusUserDetailsChecker();
        provider.setPostAuthenticationChecks(user -> {
            statusChecks.check(user);
            afterPassword.check(user);
        });
        if (users instanceof UserDetailsPasswordService rehash) {
            // a proven password whose hash is weaker than today's setting (imported bcrypt, Argon2i ...) is
            // hashed again at the first login
            provider.setUserDetailsPasswordService(rehash);
        }
        return new ProviderManager(provider);
    }
}
