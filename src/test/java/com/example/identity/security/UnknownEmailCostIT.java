package com.example.identity.security;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.startsWith;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

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
