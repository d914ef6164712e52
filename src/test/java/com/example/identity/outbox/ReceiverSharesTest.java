package com.example.identity.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * How the delivery threads are shared: receivers that hang (their deliveries never released here) cannot take the
 * threads another receiver needs.
 */
class ReceiverSharesTest {

    /** Gives threads to {@code receivers} (their messages waiting in that order) until none may have one. */
    static List<String> fill(ReceiverShares shares, List<String> receivers) {
        List<String> given = new ArrayList<>();
        for (String r = shares.take(receivers); r != null; r = shares.take(receivers)) {
            given.add(r);
        }
        return given;
    }

    @Test
    void fourReceiversThatHangWithManyMessagesLeaveAQuarterOfTheThreadsToTheOthers() {
        ReceiverShares shares = new ReceiverShares(16, 4);
        List<String> hung = List.of("a", "b", "c", "d");

        List<String> given = fill(shares, hung);

        // one each first, then more while more than a quarter is free: 12 threads, 4 left
        assertThat(given).startsWith("a", "b", "c", "d").hasSize(12);
        assertThat(shares.free()).isEqualTo(4);
        // a receiver with nothing in flight gets one at once, even if its message came last
        assertThat(shares.take(List.of("a", "b", "c", "d", "healthy"))).isEqualTo("healthy");
        shares.release("healthy");
        assertThat(shares.free()).isEqualTo(4);
    }

    @Test
    void aReceiverHasAtMostItsShare() {
        ReceiverShares shares = new ReceiverShares(16, 4);
        assertThat(fill(shares, List.of("only"))).containsExactly("only", "only", "only", "only");
        shares.release("only");
        assertThat(shares.take(List.of("only"))).isEqualTo("only");
    }

    @Test
    void upToTwelveHungReceiversNeverTakeTheLastThreadsFromANewOne() {
        ReceiverShares shares = new ReceiverShares(16, 4);
        List<String> hung = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            hung.add("hung-" + i);
        }
        assertThat(fill(shares, hung)).hasSize(12);
        for (int i = 0; i < 4; i++) {
            List<String> waiting = new ArrayList<>(hung);
            waiting.add("new-" + i);
            assertThat(shares.take(waiting)).isEqualTo("new-" + i);
        }
        // every thread busy: the next one waits for a release (at most one deadline)
        assertThat(shares.take(List.of("late"))).isNull();
        shares.release("hung-3");
        assertThat(shares.take(List.of("hung-3", "late"))).isEqualTo("hung-3"); // equally idle: the older first
    }

    @Test
    void aSmallPoolKeepsNothingBack() {
        ReceiverShares shares = new ReceiverShares(2, 4);
        assertThat(fill(shares, List.of("x"))).containsExactly("x", "x");
        assertThat(shares.free()).isZero();
        shares.release("nobody"); // nothing to release: nothing changes
        assertThat(shares.free()).isZero();
    }
}
