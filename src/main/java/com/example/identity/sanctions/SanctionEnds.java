package com.example.identity.sanctions;

import java.time.Clock;
import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import com.example.identity.audit.AuditEvent;
import com.example.identity.common.ClusterLock;

/**
 * Tells the applications that a sanction ended by itself (decisions §26): every
 * {@code identity.sanctions.end-check} (30 s), one instance at a time ({@link ClusterLock#runIfFree}) takes the
 * sanctions whose {@code hasta} has passed and whose end was not told, marks each told (one conditional UPDATE: a
 * lift racing with it tells the applications once) and enqueues {@code usuario.sancion_levantada} for the same
 * applications that heard of it ({@link SanctionEffects#ended}), with an audit line, all in one transaction. The
 * sanction had already stopped keeping anyone out at its {@code hasta} ({@link Sanctions}): only the news waits for
 * this job, by at most one interval (and for the instances to be up at all).
 */
@Component
class SanctionEnds {

    private static final Logger log = LoggerFactory.getLogger(SanctionEnds.class);
    /** Ends told per run, at most; the rest are told at the next run. */
    static final int BATCH = 200;

    private final SanctionStore store;
    private final SanctionEffects effects;
    private final ApplicationEventPublisher events;
    private final ClusterLock locks;
    private final Clock clock;

    /**
     * @param settings {@code identity.sanctions.*}, checked before the schedule below reads {@code end-check} (a value
     *     out of its bounds stops the start naming the property)
     */
    SanctionEnds(SanctionStore store, SanctionEffects effects, ApplicationEventPublisher events, ClusterLock locks,
            Clock clock, SanctionSettings settings) {
        log.debug("Sanctions' ends told every {}", settings.endCheck());
        this.store = store;
        this.effects = effects;
        this.events = events;
        this.locks = locks;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${identity.sanctions.end-check:30s}", initialDelayString = "${identity.sanctions.end-check:30s}")
    void run() {
        locks.runIfFree("sanction-ends", this::tellEnded);
    }

    /** One run's work, in the caller's transaction: how many ends were told. */
    int tellEnded() {
        Instant now = clock.instant();
        int told = 0;
        for (Sanction ended : store.endedUntold(now, BATCH)) {
            if (store.markEndTold(ended.id(), now)) {
                effects.ended(ended);
                events.publishEvent(new AuditEvent(AuditEvent.Type.SANCTION_ENDED, SanctionService.describe(ended)));
                told++;
            }
        }
        if (told > 0) {
            log.info("Sanctions: told the applications of {} sanctions that ended", told);
        }
        return told;
    }
}
