package com.example.identity.site;

import static org.mockito.Mockito.mock;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;
import com.example.identity.federation.FederatedLoginCustomizer;
import com.example.identity.federation.LinkedIdentities;
import com.example.identity.federation.SteamSettings;
import com.example.identity.oauth.logout.ConfirmedLogoutRedirect;
import com.example.identity.registration.RegistrationSettings;
import com.example.identity.signin.PasskeyCustomizer;
import com.example.identity.signin.PasswordLoginCustomizer;

/**
 * The pages' real security chain ({@link WebSecurityConfig}: access rules, the password change gate, the login
 * redirect, CSRF, headers) for a {@code @WebMvcTest} of one page controller. A slice does not scan the chain's
 * configuration, and the chain's two login customizers and its logout handler need the whole login (throttle,
 * hashing, second step, passkeys, clients): they are inert mocks here, so a slice tests its controller behind
 * the real rules, not the login itself ({@code signin/LoginIT} does).
 */
@TestConfiguration(proxyBeanMethods = false)
@Import(WebSecurityConfig.class)
public class WebChainSlice {

    @Bean
    PasswordLoginCustomizer passwordLogin() {
        return mock(PasswordLoginCustomizer.class);
    }

    @Bean
    PasskeyCustomizer passkeys() {
        return mock(PasskeyCustomizer.class);
    }

    @Bean
    ConfirmedLogoutRedirect confirmedLogout() {
        return mock(ConfirmedLogoutRedirect.class);
    }

    /** Login with other providers: none configured in a slice, as on a fresh install. */
    @Bean
    FederatedLoginCustomizer federatedLogin() {
        return mock(FederatedLoginCustomizer.class);
    }

    /** For the advice that lists an account's linked identities on /cuenta/seguridad (federation/SecurityPageLinks). */
    @Bean
    LinkedIdentities linkedIdentities() {
        return mock(LinkedIdentities.class);
    }

    /** For the advices that list the providers' buttons (federation/): Steam off, the default. */
    @Bean
    SteamSettings steamSettings() {
        return new SteamSettings(false, java.net.URI.create("https://steamcommunity.com/openid/login"));
    }

    /** For the advice that shows "Crear cuenta" on the login page (registration/SignUpLink): the default. */
    @Bean
    RegistrationSettings registrationSettings() {
        return new RegistrationSettings(true);
    }

    /** A logged-in account of {@code role}, as the session holds it (no password hash). */
    public static AccountPrincipal account(long id, Role role) {
        return new AccountPrincipal(id, "Lucía", "persona" + id + "@example.com", role, true, false, null);
    }
}
