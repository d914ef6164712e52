package com.example.identity.security;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.startsWith;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.support.WebClient;

/**
 * An unknown e-mail costs the same Argon2id hash as a wrong password for a known one, so response
 * time does not tell which accounts exist (Spring's DaoAuthenticationProvider hashes against a dummy).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class UnknownEmailCostIT {

    @LocalServerPort
    int port;

    @MockitoSpyBean
    PasswordEncoder passwordEncoder;

    @Autowired
    AccountService accounts;

    /** The stock provider answered a disabled account before hashing: faster, so time told it was disabled. */
    @Test
    void aDisabledAccountPaysTheSameArgon2idCheckAsAnEnabledOne() {
        String email = "disabled-cost-" + UUID.randomUUID() + "@example.com";
        var user = accounts.create("Off", email, "disabled-password-1", Role.USER);
        var admin = accounts.findByEmail("admin@example.com").orElseThrow();
        accounts.disable(new Caller(admin.getId(), true), user.getId());

        clearInvocations(passwordEncoder);
        var wrong = new WebClient(port).login(email, "some-password");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));
        clearInvocations(passwordEncoder);
        var right = new WebClient(port).login(email, "disabled-password-1");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));
        assertThat(WebClient.location(wrong)).isEqualTo("/login/?error=1");
        assertThat(WebClient.location(right)).as("the same answer").isEqualTo("/login/?error=1");
    }

    @Test
    void unknownAndKnownEmailsBothPayOneArgon2idCheck() {
        clearInvocations(passwordEncoder);
        new WebClient(port).login("nobody-at-all@example.com", "some-password");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));

        clearInvocations(passwordEncoder);
        new WebClient(port).login("dev@example.com", "some-password");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));
    }
}
