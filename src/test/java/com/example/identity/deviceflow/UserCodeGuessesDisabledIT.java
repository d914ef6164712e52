package com.example.identity.deviceflow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/** With {@code identity.rate-limit.enabled=false} nothing is counted, and nothing is written. */
@JdbcTest
@Import(UserCodeGuessesIT.Beans.class)
@TestPropertySource(properties = "identity.rate-limit.enabled=false")
class UserCodeGuessesDisabledIT {

    @Autowired
    UserCodeGuesses guesses;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void withRateLimitsOffEveryCodeIsLookedUp() {
        for (int i = 0; i < 30; i++) {
            assertThat(guesses.take(UserCodeGuessesIT.ADDRESS, UserCodeGuessesIT.ACCOUNT)).isZero();
        }
        assertThat(jdbc.queryForObject("select count(*) from user_code_budgets", Integer.class)).isZero();
    }
}
