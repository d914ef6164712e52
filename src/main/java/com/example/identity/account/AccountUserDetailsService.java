package com.example.identity.account;

import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Looks users up by e-mail for the login form. */
@Service
class AccountUserDetailsService implements UserDetailsService {

    private final UserAccountRepository users;
    private final java.time.Clock clock;

    AccountUserDetailsService(UserAccountRepository users, java.time.Clock clock) {
        this.users = users;
        this.clock = clock;
    }

    @Override
    @Transactional(readOnly = true)
    public UserDetails loadUserByUsername(String username) {
        if (username == null || username.isBlank() || username.length() > 254) {
            throw new UsernameNotFoundException("not found");
        }
        return users.findByCorreo(UserAccount.normalizeEmail(username))
                .map(user -> AccountPrincipal.forLogin(user, clock.instant()))
                .orElseThrow(() -> new UsernameNotFoundException("not found"));
    }
}
