package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.example.identity.IdentityProperties;
import com.example.identity.audit.AuditEvent;

/**
 * The login throttle with the shipped defaults (5 failures of a pair in 15 minutes lock the pair; an
 * account has 100 failures a day, an address 100 in 15 minutes, before growing delays from 1 s to 15
 * minutes; known addresses are exempt from those delays), on a clock the test moves.
 */
class LoginThrottleTest {

    MutableClock clock = new MutableClock();
    List<Object> events = new ArrayList<>();

    /** The shipped defaults of {@code identity.login.*}. */
    static IdentityProperties.Login shippedLogin() {
        return new IdentityProperties.Login(5, 100, 100, Duration.ofMinutes(15), Duration.ofSeconds(1),
                Duration.ofMinutes(15), Duration.ofHours(24), Duration.ofMinutes(15), Duration.ofDays(30));
    }

    static IdentityProperties properties(IdentityProperties.Login login) {
        return new IdentityProperties("http://localhost:8080", new IdentityProperties.AuthorizationCode(Duration.ofMinutes(10)),
                new IdentityProperties.AccessToken(Duration.ofHours(1)),
                new IdentityProperties.RefreshToken(Duration.ofDays(30)), new IdentityProperties.SigningKey(null), null,
                new IdentityProperties.BootstrapAdmin(null, null), login,
                new IdentityProperties.RateLimit(true, 200, 600, 5000, 10, 5), java.util.List.of(),
                new IdentityProperties.OneTimePassword(Duration.ofDays(7)),
                new IdentityProperties.Retention(Duration.ofDays(365), Duration.ofDays(30), Duration.ofDays(1)),
                new IdentityProperties.PasswordHashing(0));
    }

    LoginThrottle shipped() {
        return new LoginThrottle(properties(shippedLogin()), clock, events::add);
    }

    /** The shipped defaults without the growing delays, to count locks alone. */
    LoginThrottle withoutDelays() {
        var d = shippedLogin();
        return new LoginThrottle(properties(new IdentityProperties.Login(d.maxFailuresPerPair(), d.maxFailuresPerAccount(),
                d.maxFailuresPerAddress(), d.lockDuration(), Duration.ZERO, d.maxDelay(), d.accountWindow(),
                d.addressWindow(), d.knownAddressTtl())), clock, events::add);
    }

    @Test
    void pairDelaysGrowFromTheSecondFailureAndSlowOnlyThatPair() {
        var throttle = shipped();
        throttle.recordFailure("a@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).isFalse();

        throttle.recordFailure("a@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("A@Example.com ", "10.0.0.1")).as("1 s after the 2nd failure").isTrue();
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.2")).as("the owner elsewhere is not slowed").isFalse();
        assertThat(throttle.isBlocked("b@example.com", "10.0.0.1")).as("others on that address are not slowed").isFalse();
        clock.advance(Duration.ofMillis(1001));
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).isFalse();

        throttle.recordFailure("a@example.com", "10.0.0.1");
        clock.advance(Duration.ofMillis(1500));
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).as("2 s after the 3rd").isTrue();
        clock.advance(Duration.ofMillis(600));
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).isFalse();
    }

    @Test
    void fiveFailuresLockThePairOnlyAndSuccessForgivesIt() {
        var throttle = withoutDelays();
        for (int i = 0; i < 4; i++) {
            assertThat(throttle.recordFailure("c@example.com", "10.0.0.1")).isFalse();
        }
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.1")).isFalse();
        assertThat(throttle.recordFailure("c@example.com", "10.0.0.1")).as("the 5th failure locks").isTrue();
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.1")).isTrue();
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.2")).as("the account from another address").isFalse();
        assertThat(throttle.isBlocked("other@example.com", "10.0.0.1")).as("another account from that address")
                .isFalse();

        throttle.recordSuccess("c@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.1")).isFalse();
    }

    @Test
    void aPairLockLastsTheWholeLockDurationFromTheFailureThatCausedIt() {
        var throttle = withoutDelays();
        throttle.recordFailure("d@example.com", "10.0.0.1");
        clock.advance(Duration.ofMinutes(14));
        for (int i = 0; i < 4; i++) {
            throttle.recordFailure("d@example.com", "10.0.0.1");
        }
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).isTrue();

        clock.advance(Duration.ofMinutes(2));
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).as("the counting window has ended, the lock has not")
                .isTrue();
        clock.advance(Duration.ofMinutes(13).plusSeconds(1));
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).as("15 minutes after the locking failure").isFalse();

        throttle.recordFailure("d@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).as("counting starts afresh after a lock").isFalse();
    }

    @Test
    void manyFailuresOnDifferentAccountsFromOneAddressDoNotStopAnotherAccountThere() {
        var throttle = shipped();
        for (int i = 0; i < 99; i++) {
            throttle.recordFailure("player" + i + "@example.com", "100.64.0.1");
        }
        assertThat(throttle.isBlocked("someone-else@example.com", "100.64.0.1"))
                .as("99 failures of 99 players behind one carrier-grade NAT").isFalse();
        throttle.recordFailure("player99@example.com", "100.64.0.1");
        assertThat(throttle.isBlocked("someone-else@example.com", "100.64.0.1")).as("the 100th").isFalse();
    }

    @Test
    void pastTheAddressBudgetDelaysGrowForNewcomersButNotForKnownPairs() {
        var throttle = shipped();
        throttle.recordSuccess("regular@example.com", "100.64.0.1");
        for (int i = 0; i < 101; i++) {
            throttle.recordFailure("spray" + i + "@example.com", "100.64.0.1");
        }
        assertThat(throttle.isBlocked("newcomer@example.com", "100.64.0.1")).as("101st failure: 1 s").isTrue();
        assertThat(throttle.isBlocked("regular@example.com", "100.64.0.1")).as("a known address of the account")
                .isFalse();
        assertThat(throttle.isBlocked("newcomer@example.com", "100.64.0.2")).isFalse();
        clock.advance(Duration.ofMillis(1001));
        assertThat(throttle.isBlocked("newcomer@example.com", "100.64.0.1")).isFalse();
        throttle.recordFailure("spray-more@example.com", "100.64.0.1");
        clock.advance(Duration.ofMillis(1500));
        assertThat(throttle.isBlocked("newcomer@example.com", "100.64.0.1")).as("2 s after the 102nd").isTrue();
        clock.advance(Duration.ofMillis(600));
        assertThat(throttle.isBlocked("newcomer@example.com", "100.64.0.1")).isFalse();
    }

    @Test
    void strangersOnAKnownEmailFromOtherAddressesNeverStopTheOwnerFromTheirAddress() {
        var throttle = shipped();
        throttle.recordSuccess("owner@example.com", "198.51.100.7");
        // 60 addresses, 5 failures each, as fast as the pair delays allow: 300 failures, three times the budget
        for (int a = 0; a < 60; a++) {
            for (int i = 0; i < 5; i++) {
                clock.advance(Duration.ofSeconds(10));
                throttle.recordFailure("owner@example.com", "203.0.113." + a);
            }
        }
        assertThat(throttle.isBlocked("owner@example.com", "198.51.100.7")).as("the owner's known address").isFalse();
        assertThat(throttle.isBlocked("owner@example.com", "192.0.2.1")).as("a new address of the account is delayed")
                .isTrue();
        clock.advance(Duration.ofMinutes(15));
        assertThat(throttle.isBlocked("owner@example.com", "192.0.2.1")).as("for at most max-delay").isFalse();
    }

    @Test
    void aKnownAddressIsKnownFor30DaysAfterItsLastSuccessNotAfterItsLastLookup() {
        var throttle = shipped();
        throttle.recordSuccess("owner3@example.com", "198.51.100.9");
        clock.advance(Duration.ofDays(29));
        burst(throttle, "owner3@example.com", "203.0.113.", 110);
        assertThat(throttle.isBlocked("owner3@example.com", "192.0.2.9")).as("past the budget").isTrue();
        assertThat(throttle.isBlocked("owner3@example.com", "198.51.100.9")).as("known, day 29").isFalse();

        clock.advance(Duration.ofDays(1).plusMinutes(1));
        burst(throttle, "owner3@example.com", "203.0.114.", 110);
        assertThat(throttle.isBlocked("owner3@example.com", "198.51.100.9")).as("30 days after the last success")
                .isTrue();
    }

    /** {@code count} failures on {@code email}, each from a fresh address, 10 s apart. */
    private void burst(LoginThrottle throttle, String email, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            clock.advance(Duration.ofSeconds(10));
            throttle.recordFailure(email, prefix + i);
        }
    }

    @Test
    void strangersWithinTheAccountBudgetDoNotSlowTheOwnerAnywhere() {
        var throttle = shipped();
        for (int a = 0; a < 20; a++) {
            for (int i = 0; i < 5; i++) {
                clock.advance(Duration.ofSeconds(10));
                throttle.recordFailure("owner2@example.com", "203.0.113." + a);
            }
        }
        assertThat(throttle.isBlocked("owner2@example.com", "198.51.100.8")).as("100 failures from 20 addresses")
                .isFalse();
    }

    @Test
    void aSteadyDistributedGuesserGetsTheBudgetsRefillPlusOneGuessPerMaxDelay() {
        var throttle = shipped();
        int[] address = { 0 };
        int firstDay = guessFor(throttle, Duration.ofDays(1), address);
        int secondDay = guessFor(throttle, Duration.ofDays(1), address);
        // day one: the budget of 100 at once, the delays' ramp (1 s ... 512 s: 10), about 100 refilled,
        // and one per 15 minutes (96); then the refill and one per 15 minutes: under 200 a day
        assertThat(firstDay).as("guesses at one account on the first day").isBetween(290, 310);
        assertThat(secondDay).as("guesses at one account on each later day").isBetween(185, 200);
    }

    /** Guesses one account from a fresh address each time (no pair limit ever bites), once a second when allowed. */
    private int guessFor(LoginThrottle throttle, Duration period, int[] address) {
        int guesses = 0;
        Instant end = clock.instant().plus(period);
        while (clock.instant().isBefore(end)) {
            String from = "203." + (address[0] >> 16) + "." + ((address[0] >> 8) & 255) + "." + (address[0] & 255);
            if (!throttle.isBlocked("target@example.com", from)) {
                throttle.recordFailure("target@example.com", from);
                guesses++;
                address[0]++;
            }
            clock.advance(Duration.ofSeconds(1));
        }
        return guesses;
    }

    @Test
    void refusalsAreCountedAndWrittenAsOneAuditRowPerAccount() {
        var throttle = withoutDelays();
        for (int i = 0; i < 5; i++) {
            throttle.recordFailure("e@example.com", "10.0.0.1");
        }
        for (int i = 0; i < 7; i++) {
            assertThat(throttle.refuse("e@example.com", "10.0.0.1")).isTrue();
        }
        assertThat(throttle.refuse("e@example.com", "10.0.0.2")).isFalse();
        events.clear();
        throttle.flushRefused();
        assertThat(events).containsExactly(new AuditEvent(AuditEvent.Type.LOGIN_REFUSED, "7 intentos rechazados",
                "e@example.com"));
        events.clear();
        throttle.flushRefused();
        assertThat(events).isEmpty();
    }

    @Test
    void aFloodOfNewKeysDoesNotGiveAPairUnderAttackItsFailuresBack() {
        var throttle = withoutDelays();
        throttle.recordFailure("victim@example.com", "10.0.0.1");

        // More distinct e-mail and source addresses than the maps hold, with a failure of the pair under
        // attack now and then (4 in all). The old bound emptied the maps at 100,000 keys. The maps' upkeep runs on
        // this thread (LoginThrottlePolicy), so what they keep depends on these calls alone, not on a busy pool.
        for (int i = 0; i < 120_000; i++) {
            throttle.recordFailure("flood" + i + "@example.com", "10.1." + (i >> 8) + "." + (i & 255));
            if (i % 40_000 == 39_999) {
                throttle.recordFailure("victim@example.com", "10.0.0.1");
            }
        }
        assertThat(throttle.isBlocked("victim@example.com", "10.0.0.1")).as("4 failures").isFalse();

        throttle.recordFailure("victim@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("victim@example.com", "10.0.0.1")).as("the 5th failure locks").isTrue();
    }

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** Two instances whose messages reach each other (through PostgreSQL NOTIFY in the service). */
    LoginThrottle[] twoInstances() {
        var d = shippedLogin();
        var props = properties(new IdentityProperties.Login(d.maxFailuresPerPair(), d.maxFailuresPerAccount(),
                d.maxFailuresPerAddress(), d.lockDuration(), Duration.ZERO, d.maxDelay(), d.accountWindow(),
                d.addressWindow(), d.knownAddressTtl()));
        LoginThrottle[] nodes = new LoginThrottle[2];
        for (int n = 0; n < 2; n++) {
            int other = 1 - n;
            nodes[n] = new LoginThrottle(props, clock, events::add, (topic, message) -> {
                if (topic.equals(LoginThrottleReplication.FAILURES)) {
                    nodes[other].failureElsewhere(message);
                }
                else {
                    nodes[other].successElsewhere(message);
                }
            }, null);
        }
        return nodes;
    }

    @Test
    void failuresSpreadOverTwoInstancesLockThePairOnBothAndASuccessOnOneForgivesItOnBoth() {
        var nodes = twoInstances();
        for (int i = 0; i < 4; i++) {
            assertThat(nodes[i % 2].recordFailure("spread@example.com", "10.0.0.9")).isFalse();
        }
        assertThat(nodes[0].isBlocked("spread@example.com", "10.0.0.9")).isFalse();
        assertThat(nodes[0].recordFailure("Spread@Example.com", "10.0.0.9")).as("the 5th, 3 here and 2 there").isTrue();
        assertThat(nodes[0].isBlocked("spread@example.com", "10.0.0.9")).isTrue();
        assertThat(nodes[1].isBlocked("spread@example.com", "10.0.0.9")).isTrue();
        assertThat(nodes[1].isBlocked("spread@example.com", "10.0.0.10")).isFalse();

        nodes[1].recordSuccess("spread@example.com", "10.0.0.9");
        assertThat(nodes[0].isBlocked("spread@example.com", "10.0.0.9")).isFalse();
        assertThat(nodes[1].isBlocked("spread@example.com", "10.0.0.9")).isFalse();
    }

    /** {@code count} threads each take an attempt of one pair at once; the attempts taken (refused: null). */
    private static List<LoginThrottle.Attempt> simultaneously(LoginThrottle throttle, int count, String email,
            String address) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            var go = new CountDownLatch(1);
            List<Future<LoginThrottle.Attempt>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> {
                    assertThat(go.await(10, TimeUnit.SECONDS)).isTrue();
                    return throttle.tryAcquire(email, address);
                }));
            }
            go.countDown();
            List<LoginThrottle.Attempt> attempts = new ArrayList<>();
            for (var future : futures) {
                attempts.add(future.get(10, TimeUnit.SECONDS));
            }
            return attempts;
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void simultaneousAttemptsOfAPairTakeNoMoreUnitsThanItsBudgetAndTheirFailuresLockIt() throws Exception {
        var throttle = withoutDelays();
        List<LoginThrottle.Attempt> attempts = simultaneously(throttle, 20, "g@example.com", "10.0.0.1");
        List<LoginThrottle.Attempt> taken = attempts.stream().filter(a -> a != null).toList();
        assertThat(taken).as("20 at once, none settled yet: the pair's 5").hasSize(5);
        assertThat(throttle.isBlocked("g@example.com", "10.0.0.1")).as("nothing counted yet").isFalse();
        assertThat(throttle.tryAcquire("g@example.com", "10.0.0.2")).as("the account from elsewhere").isNotNull();
        assertThat(throttle.tryAcquire("h@example.com", "10.0.0.1")).as("another account from there").isNotNull();

        List<Boolean> locked = taken.stream().map(LoginThrottle.Attempt::failed).toList();
        assertThat(locked).containsExactly(false, false, false, false, true);
        assertThat(throttle.isBlocked("g@example.com", "10.0.0.1")).isTrue();
        events.clear();
        throttle.flushRefused();
        assertThat(events).as("the refused attempts are counted for the audit trail").containsExactly(
                new AuditEvent(AuditEvent.Type.LOGIN_REFUSED, "15 intentos rechazados", "g@example.com"));
    }

    @Test
    void withTheDelaysOnTheAttemptsUnderWayMayNotMakeTheNextOneWait() {
        var throttle = shipped();
        var first = throttle.tryAcquire("i@example.com", "10.0.0.1");
        var second = throttle.tryAcquire("i@example.com", "10.0.0.1");
        assertThat(first).isNotNull();
        assertThat(second).as("were the first to fail, this would be the 1st failure").isNotNull();
        assertThat(throttle.tryAcquire("i@example.com", "10.0.0.1")).as("the 2nd failure would delay this one")
                .isNull();
        first.failed();
        second.failed();
        assertThat(throttle.isBlocked("i@example.com", "10.0.0.1")).as("1 s after the 2nd failure").isTrue();
        clock.advance(Duration.ofMillis(1001));
        var third = throttle.tryAcquire("i@example.com", "10.0.0.1");
        assertThat(third).isNotNull();
        assertThat(throttle.tryAcquire("i@example.com", "10.0.0.1")).as("while the 3rd is checked").isNull();
        third.close();
        assertThat(throttle.tryAcquire("i@example.com", "10.0.0.1")).as("the 3rd given back").isNotNull();
    }

    @Test
    void anAttemptThatSucceedsGivesItsUnitBackAndForgivesThePair() {
        var throttle = withoutDelays();
        for (int i = 0; i < 4; i++) {
            throttle.recordFailure("j@example.com", "10.0.0.1");
        }
        var fifth = throttle.tryAcquire("j@example.com", "10.0.0.1");
        assertThat(fifth).isNotNull();
        assertThat(throttle.tryAcquire("j@example.com", "10.0.0.1")).as("the 5th may lock the pair").isNull();
        fifth.succeeded();
        fifth.failed();
        assertThat(throttle.isBlocked("j@example.com", "10.0.0.1")).isFalse();
        for (int i = 0; i < 4; i++) {
            assertThat(throttle.recordFailure("j@example.com", "10.0.0.1")).as("forgiven, counted once").isFalse();
        }
    }

    @Test
    void aClosedAttemptCountsNothingAndAFailedOneCountsOnce() {
        var throttle = withoutDelays();
        for (int i = 0; i < 5; i++) {
            throttle.tryAcquire("k@example.com", "10.0.0.1").close();
        }
        var failed = throttle.tryAcquire("k@example.com", "10.0.0.1");
        assertThat(failed.failed()).isFalse();
        assertThat(failed.failed()).as("settled already").isFalse();
        failed.close();
        failed.succeeded();
        for (int i = 0; i < 3; i++) {
            assertThat(throttle.recordFailure("k@example.com", "10.0.0.1")).isFalse();
        }
        assertThat(throttle.recordFailure("k@example.com", "10.0.0.1")).as("the 5th failure").isTrue();
    }

    @Test
    void attemptsUnderWayPastAnAccountsBudgetWaitButNotAtAKnownAddress() {
        var throttle = shipped();
        throttle.recordSuccess("l@example.com", "198.51.100.1");
        for (int i = 0; i < 99; i++) {
            throttle.recordFailure("l@example.com", "203.0.113." + i);
        }
        var hundredth = throttle.tryAcquire("l@example.com", "192.0.2.1");
        var hundredFirst = throttle.tryAcquire("l@example.com", "192.0.2.2");
        assertThat(hundredth).isNotNull();
        assertThat(hundredFirst).as("its failure would start the account's delay").isNotNull();
        assertThat(throttle.tryAcquire("l@example.com", "192.0.2.3")).as("which would make this one wait").isNull();
        assertThat(throttle.tryAcquire("l@example.com", "198.51.100.1")).as("the owner's known address").isNotNull();
        assertThat(throttle.tryAcquire("m@example.com", "192.0.2.3")).as("another account").isNotNull();
    }

    @Test
    void anAttemptNeverSettledStopsHoldingItsUnitAfterAMinute() {
        var throttle = withoutDelays();
        for (int i = 0; i < 5; i++) {
            assertThat(throttle.tryAcquire("n@example.com", "10.0.0.1")).isNotNull();
        }
        assertThat(throttle.tryAcquire("n@example.com", "10.0.0.1")).isNull();
        clock.advance(LoginThrottle.ATTEMPT_TTL);
        assertThat(throttle.tryAcquire("n@example.com", "10.0.0.1")).isNotNull();
    }

    @Test
    void theFailuresAndSuccessesOfAttemptsReachTheOtherInstance() {
        var nodes = twoInstances();
        for (int i = 0; i < 4; i++) {
            assertThat(nodes[i % 2].tryAcquire("o@example.com", "10.0.0.9").failed()).isFalse();
        }
        nodes[1].tryAcquire("o@example.com", "10.0.0.9").succeeded();
        for (int i = 0; i < 4; i++) {
            assertThat(nodes[0].tryAcquire("o@example.com", "10.0.0.9").failed()).as("forgiven on both").isFalse();
        }
        assertThat(nodes[1].tryAcquire("o@example.com", "10.0.0.9").failed()).as("the 5th since").isTrue();
        assertThat(nodes[0].isBlocked("o@example.com", "10.0.0.9")).isTrue();
        assertThat(nodes[0].tryAcquire("o@example.com", "10.0.0.9")).isNull();
    }

    @Test
    void anOverlongUsernameIsCountedByItsDigestAndTravelsShort() {
        List<String> sent = new ArrayList<>();
        var props = properties(shippedLogin());
        var throttle = new LoginThrottle(props, clock, events::add, (topic, message) -> sent.add(message), null);
        String huge = "x".repeat(100_000) + "@example.com";
        for (int i = 0; i < 5; i++) {
            throttle.recordFailure(huge, "10.0.0.11");
            clock.advance(Duration.ofMinutes(1));
        }
        assertThat(throttle.isBlocked(huge.toUpperCase(java.util.Locale.ROOT), "10.0.0.11")).isTrue();
        assertThat(sent).hasSize(5).allSatisfy(message -> assertThat(message.length()).isLessThan(100));
    }

    /** The shipped defaults with the service's queue (issue 39). */
    LoginThrottle queued(IdentityProperties.Login login, LoginThrottleAttempts.Queue queue) {
        return new LoginThrottle(properties(login), clock, events::add, queue);
    }

    /** {@code count} threads each take an attempt of one pair at once and settle it with {@code settle}. */
    private static List<Boolean> simultaneouslySettled(LoginThrottle throttle, int count, String email, String address,
            java.util.function.Consumer<LoginThrottle.Attempt> settle) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            var go = new CountDownLatch(1);
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> {
                    assertThat(go.await(10, TimeUnit.SECONDS)).isTrue();
                    LoginThrottle.Attempt attempt = throttle.tryAcquire(email, address);
                    if (attempt == null) {
                        return false;
                    }
                    settle.accept(attempt);
                    return true;
                }));
            }
            go.countDown();
            List<Boolean> taken = new ArrayList<>();
            for (var future : futures) {
                taken.add(future.get(30, TimeUnit.SECONDS));
            }
            return taken;
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rightPasswordsAtOnceWaitTheirTurnAndAllGetIn() throws Exception {
        var throttle = queued(shippedLogin(), LoginThrottle.QUEUE);
        List<Boolean> taken = simultaneouslySettled(throttle, 12, "family@example.com", "10.0.0.1",
                LoginThrottle.Attempt::succeeded);
        assertThat(taken).as("two at a time with the delays on, the others waiting").hasSize(12).containsOnly(true);
        assertThat(throttle.waiting("family@example.com", "10.0.0.1")).isZero();
    }

    @Test
    void waitingGuessesAreRefusedOnceTheFailuresCountedLockThePairAndNoMoreThanTheBudgetIsTaken() throws Exception {
        var d = shippedLogin();
        var throttle = queued(new IdentityProperties.Login(d.maxFailuresPerPair(), d.maxFailuresPerAccount(),
                d.maxFailuresPerAddress(), d.lockDuration(), Duration.ZERO, d.maxDelay(), d.accountWindow(),
                d.addressWindow(), d.knownAddressTtl()), LoginThrottle.QUEUE);
        List<Boolean> taken = simultaneouslySettled(throttle, 20, "g@example.com", "10.0.0.1", LoginThrottle.Attempt::failed);
        assertThat(taken).filteredOn(Boolean::booleanValue).as("the pair's budget, whatever the order").hasSize(5);
        assertThat(throttle.isBlocked("g@example.com", "10.0.0.1")).isTrue();
        assertThat(throttle.waiting("g@example.com", "10.0.0.1")).isZero();
    }

    @Test
    void withTheDelaysOnTheSecondFailureCountedRefusesTheWaitingAttempts() throws Exception {
        var throttle = queued(shippedLogin(), LoginThrottle.QUEUE);
        List<Boolean> taken = simultaneouslySettled(throttle, 10, "h@example.com", "10.0.0.1", LoginThrottle.Attempt::failed);
        assertThat(taken).filteredOn(Boolean::booleanValue).as("the 2nd failure delays the next").hasSize(2);
    }

    @Test
    void aFullQueueRefusesAtOnceAndAWaitEndsAfterItsLongest() throws Exception {
        var throttle = queued(shippedLogin(), new LoginThrottleAttempts.Queue(1, 64, Duration.ofMillis(300)));
        var first = throttle.tryAcquire("q@example.com", "10.0.0.1");
        var second = throttle.tryAcquire("q@example.com", "10.0.0.1");
        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<LoginThrottle.Attempt> third = pool.submit(() -> throttle.tryAcquire("q@example.com", "10.0.0.1"));
            await(() -> throttle.waiting("q@example.com", "10.0.0.1") == 1);
            assertThat(throttle.tryAcquire("q@example.com", "10.0.0.1")).as("the pair's queue is full").isNull();
            assertThat(third.get(10, TimeUnit.SECONDS)).as("nobody settled within its longest wait").isNull();
            assertThat(throttle.waiting("q@example.com", "10.0.0.1")).isZero();
            Future<LoginThrottle.Attempt> fourth = pool.submit(() -> throttle.tryAcquire("q@example.com", "10.0.0.1"));
            await(() -> throttle.waiting("q@example.com", "10.0.0.1") == 1);
            first.succeeded();
            assertThat(fourth.get(10, TimeUnit.SECONDS)).as("its turn once one ahead is settled").isNotNull();
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLockCountedAtAnotherInstanceRefusesTheAttemptsWaitingHere() throws Exception {
        var d = shippedLogin();
        var props = properties(new IdentityProperties.Login(d.maxFailuresPerPair(), d.maxFailuresPerAccount(),
                d.maxFailuresPerAddress(), d.lockDuration(), Duration.ZERO, d.maxDelay(), d.accountWindow(),
                d.addressWindow(), d.knownAddressTtl()));
        var here = new LoginThrottle(props, clock, events::add, LoginThrottle.QUEUE);
        var taken = new ArrayList<LoginThrottle.Attempt>();
        for (int i = 0; i < 5; i++) {
            taken.add(here.tryAcquire("r@example.com", "10.0.0.1"));
        }
        assertThat(taken).doesNotContainNull();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<LoginThrottle.Attempt> waiting = pool.submit(() -> here.tryAcquire("r@example.com", "10.0.0.1"));
            await(() -> here.waiting("r@example.com", "10.0.0.1") == 1);
            String message = "8:10.0.0.1r@example.com";
            for (int i = 0; i < 5; i++) {
                here.failureElsewhere(message);
            }
            assertThat(waiting.get(5, TimeUnit.SECONDS)).as("refused at once, not after its longest wait").isNull();
        }
        finally {
            pool.shutdownNow();
        }
    }

    /** Polls {@code condition} for up to 10 seconds. */
    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
