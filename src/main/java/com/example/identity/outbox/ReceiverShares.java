package com.example.identity.outbox;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * How an instance shares its {@code concurrency} delivery threads among receivers, so that receivers that are slow
 * or never answer (each holding a thread up to the outbound deadline) do not take the threads of the others:
 * <ul>
 * <li>the next thread goes to the receiver with the fewest deliveries in flight (among those with a message due;
 * on a tie, the one whose message has waited longest), so a receiver with nothing in flight goes first;</li>
 * <li>a receiver has at most {@code per-receiver} deliveries in flight;</li>
 * <li>a receiver that already has one gets another only while more than a quarter of the threads are free: that
 * quarter is kept for receivers with nothing in flight.</li>
 * </ul>
 * So with 16 threads and 4 per receiver, up to 12 receivers hanging at once never delay another receiver's delivery
 * by more than a poll; beyond that, a delivery waits for a thread at most one deadline. Thread-safe: the dispatcher
 * takes, the delivery threads release.
 */
final class ReceiverShares {

    private final int concurrency;
    private final int perReceiver;
    private final int reserved;
    private final Map<String, Integer> inFlight = new HashMap<>();
    private int running;

    ReceiverShares(int concurrency, int perReceiver) {
        this.concurrency = concurrency;
        this.perReceiver = perReceiver;
        this.reserved = concurrency / 4;
    }

    /** Threads without a delivery now. */
    synchronized int free() {
        return concurrency - running;
    }

    /**
     * The receiver among {@code waiting} (in the order their messages have waited) to give the next thread to, that
     * thread taken for it; null when none may have one now.
     */
    synchronized String take(Collection<String> waiting) {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String receiver : waiting) {
            int busy = inFlight.getOrDefault(receiver, 0);
            if (busy < fewest) {
                best = receiver;
                fewest = busy;
            }
        }
        if (best == null || running >= concurrency || fewest >= perReceiver
                || (fewest > 0 && concurrency - running <= reserved)) {
            return null; // the least busy may not: no other may either
        }
        inFlight.put(best, fewest + 1);
        running++;
        return best;
    }

    /** A delivery to {@code receiver} ended (or was not started): its thread is free. */
    synchronized void release(String receiver) {
        Integer busy = inFlight.get(receiver);
        if (busy == null) {
            return;
        }
        if (busy <= 1) {
            inFlight.remove(receiver);
        }
        else {
            inFlight.put(receiver, busy - 1);
        }
        running--;
    }
}
