package com.example.identity.deviceflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import com.example.identity.IdentityProperties;
import com.example.identity.support.MovableClock;

/**
 * The guessing budget of {@code /activar} against its table (migration V34) in a database of its own: a JDBC
 * slice with Flyway and this one class, each test in a transaction rolled back at its end. The shipped
 * budget: 10 units a key, one back every minute.
 */
@JdbcTest
// the integration tests' database (PostgreSQL in .ci/run's second pass), not an embedded H2 in its place
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@ActiveProfiles("test")
@Import(UserCodeGuessesIT.Beans.class)
@TestPropertySource(properties = "identity.rate-limit.enabled=true")
class UserCodeGuessesIT {

    static final Instant START = Instant.parse("2025-05-05T10:00:00Z");

    @TestConfiguration
    @EnableConfigurationProperties(IdentityProperties.class)
    @Import(UserCodeGuesses.class)
    static class Beans {
        /** Named like the service's, so that support/MovableClock wraps it. */
        @Bean
        Clock clock() {
            return Clock.fixed(START, ZoneOffset.UTC);
        }
    }

    @Autowired
    UserCodeGuesses guesses;

    @Autowired
    MovableClock clock;

    @Autowired
    JdbcTemplate jdbc;

    /**
     * The integration tests' database is shared with the other test classes, which leave budgets behind: this
     * test's transaction starts without them (and gives them back when it rolls back).
     */
    @BeforeEach
    void onlyThisTestsBudgets() {
        jdbc.update("delete from user_code_budgets");
    }

    static final String ADDRESS = UserCodeGuesses.address("203.0.113.7");
    static final String ACCOUNT = UserCodeGuesses.account(42);

    void spend(int units, String... keys) {
        for (int i = 0; i < units; i++) {
            assertThat(guesses.take(keys)).as("unit " + (i + 1)).isZero();
        }
    }

    @Test
    void tenWrongCodesThenAMinuteUntilTheNextOne() {
        spend(10, ADDRESS);
        assertThat(guesses.take(ADDRESS)).isEqualTo(60);

        clock.advance(Duration.ofSeconds(45));
        assertThat(guesses.take(ADDRESS)).as("15 s to go").isEqualTo(15);

        clock.advance(Duration.ofSeconds(15));
        assertThat(guesses.take(ADDRESS)).isZero();
        assertThat(guesses.take(ADDRESS)).as("one unit back, one spent").isPositive();
    }

    @Test
    void budgetsAreKeptApart() {
        spend(10, ADDRESS);
        assertThat(guesses.take(ADDRESS)).isPositive();
        assertThat(guesses.take(UserCodeGuesses.address("198.51.100.1"))).isZero();
        assertThat(guesses.take(ACCOUNT)).isZero();
    }

    @Test
    void aRightCodeGivesItsUnitsBack() {
        for (int i = 0; i < 50; i++) {
            assertThat(guesses.take(ADDRESS, ACCOUNT)).isZero();
            guesses.giveBack(ADDRESS, ACCOUNT);
        }
        spend(10, ADDRESS, ACCOUNT);
        assertThat(guesses.take(ADDRESS, ACCOUNT)).isPositive();
    }

    @Test
    void takingIsAllOrNoneTheAddressGetsItsUnitBackWhenTheAccountHasNone() {
        spend(10, ACCOUNT);
        for (int i = 0; i < 20; i++) {
            assertThat(guesses.take(ADDRESS, ACCOUNT)).isPositive();
        }
        spend(10, ADDRESS);
        assertThat(guesses.take(ADDRESS)).isPositive();
    }

    @Test
    void keysAreStoredAsDigestsOnly() {
        spend(1, ADDRESS);
        assertThat(jdbc.queryForList("select key_digest from user_code_budgets", String.class)).singleElement()
                .asString().hasSize(64).doesNotContain("203.0.113.7");
    }

    @Test
    void theRetentionJobForgetsOnlyBudgetsThatAreFullAgain() {
        spend(10, ADDRESS);
        spend(1, ACCOUNT);
        clock.advance(Duration.ofMinutes(2));
        assertThat(guesses.purge(clock.instant(), clock.instant())).as("the account's unit came back").isEqualTo(1);
        spend(2, ADDRESS); // the address's budget was kept, with the two units of those two minutes back
        assertThat(guesses.take(ADDRESS)).isPositive();

        clock.advance(Duration.ofMinutes(10));
        assertThat(guesses.purge(clock.instant(), clock.instant())).as("full exactly now: not yet forgotten").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(guesses.purge(clock.instant(), clock.instant())).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from user_code_budgets", Integer.class)).isZero();
    }
}
