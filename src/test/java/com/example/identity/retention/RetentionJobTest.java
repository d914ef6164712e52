package com.example.identity.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import com.example.identity.IdentityProperties;
import com.example.identity.common.ClusterLock;
import com.example.identity.common.Purge;
import com.example.identity.common.Purge.Kind;

/** The hourly job runs every feature's purge, in the order of their kinds, each with the cutoff of its setting. */
class RetentionJobTest {

    static final Instant NOW = Instant.parse("2025-06-15T12:00:00Z");

    /** A purge that notes when and with what it ran, and says it deleted {@code deleted} rows. */
    record Call(Kind kind, Instant cutoff, Instant now) {
    }

    static Purge purge(Kind kind, List<Call> calls, int deleted) {
        return new Purge() {
            @Override
            public Kind kind() {
                return kind;
            }

            @Override
            public int purge(Instant cutoff, Instant now) {
                calls.add(new Call(kind, cutoff, now));
                return deleted;
            }
        };
    }

    static IdentityProperties settings(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("identity", IdentityProperties.class);
    }

    /** A lock that is free: the work runs at once, as on H2 with one instance. */
    static ClusterLock freeLock() {
        ClusterLock lock = mock(ClusterLock.class);
        when(lock.runIfFree(eq("retention"), any())).thenAnswer(call -> {
            call.<Runnable>getArgument(1).run();
            return true;
        });
        return lock;
    }

    static RetentionJob job(IdentityProperties settings, List<Purge> purges, ClusterLock lock) {
        return new RetentionJob(settings, purges, Clock.fixed(NOW, ZoneOffset.UTC), lock);
    }

    @Test
    void purgesRunInTheOrderOfTheirKindsWhateverOrderTheyCameIn() {
        List<Call> calls = new ArrayList<>();
        List<Purge> shuffled = List.of(purge(Kind.GUESSING_BUDGETS, calls, 0), purge(Kind.AUDIT_ROWS, calls, 1),
                purge(Kind.LOGIN_PAIRS, calls, 0), purge(Kind.ENDED_TOKENS, calls, 2), purge(Kind.EXPIRED_CODES, calls, 3),
                purge(Kind.ENDED_TOKENS, calls, 0));

        job(settings(Map.of()), shuffled, freeLock()).run();

        assertThat(calls).extracting(Call::kind).containsExactly(Kind.ENDED_TOKENS, Kind.ENDED_TOKENS,
                Kind.EXPIRED_CODES, Kind.AUDIT_ROWS, Kind.LOGIN_PAIRS, Kind.GUESSING_BUDGETS);
    }

    @Test
    void theShippedSettingsKeepAuditRowsAYearEndedTokensAMonthAndExpiredCodesADay() {
        List<Call> calls = new ArrayList<>();
        List<Purge> purges = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            purges.add(purge(kind, calls, 0));
        }

        job(settings(Map.of()), purges, freeLock()).run();

        assertThat(calls).containsExactly(
                new Call(Kind.ENDED_TOKENS, NOW.minus(Duration.ofDays(30)), NOW),
                new Call(Kind.EXPIRED_CODES, NOW.minus(Duration.ofDays(1)), NOW),
                new Call(Kind.AUDIT_ROWS, NOW.minus(Duration.ofDays(365)), NOW),
                new Call(Kind.LOGIN_PAIRS, NOW, NOW),
                new Call(Kind.GUESSING_BUDGETS, NOW, NOW),
                new Call(Kind.SEEN_PROOFS, NOW, NOW),
                // the guests' own setting (identity.guests.max-idle) is applied by their purge
                new Call(Kind.IDLE_GUESTS, NOW, NOW),
                // decisions §27's 7 days are the consents' own
                new Call(Kind.UNANSWERED_CONSENTS, NOW, NOW));
    }

    @Test
    void eachCutoffFollowsItsOwnSetting() {
        List<Call> calls = new ArrayList<>();
        IdentityProperties configured = settings(Map.of("identity.retention.audit", "90d",
                "identity.retention.tokens", "7d", "identity.retention.codes", "2d"));

        job(configured, List.of(purge(Kind.AUDIT_ROWS, calls, 0), purge(Kind.ENDED_TOKENS, calls, 0),
                purge(Kind.EXPIRED_CODES, calls, 0), purge(Kind.LOGIN_PAIRS, calls, 0)), freeLock()).run();

        assertThat(calls).containsExactly(
                new Call(Kind.ENDED_TOKENS, NOW.minus(Duration.ofDays(7)), NOW),
                new Call(Kind.EXPIRED_CODES, NOW.minus(Duration.ofDays(2)), NOW),
                new Call(Kind.AUDIT_ROWS, NOW.minus(Duration.ofDays(90)), NOW),
                new Call(Kind.LOGIN_PAIRS, NOW, NOW));
    }

    @Test
    void theJobRunsUnderTheRetentionLockAndNotAtAllWhenAnotherInstanceHoldsIt() {
        List<Call> calls = new ArrayList<>();
        ClusterLock busy = mock(ClusterLock.class);
        when(busy.runIfFree(eq("retention"), any())).thenReturn(false);

        job(settings(Map.of()), List.of(purge(Kind.AUDIT_ROWS, calls, 5)), busy).run();

        verify(busy).runIfFree(eq("retention"), any());
        assertThat(calls).isEmpty();
    }

    @Test
    void withNoPurgesTheJobStillRuns() {
        ClusterLock lock = freeLock();
        job(settings(Map.of()), List.of(), lock).run();
        verify(lock).runIfFree(eq("retention"), any());
    }
}
