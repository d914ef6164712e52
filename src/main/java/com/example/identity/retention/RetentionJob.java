package com.example.identity.retention;

import java.time.Clock;
import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.abuse.LoginPairs;
import com.example.identity.audit.AuditTrail;
import com.example.identity.account.EmailChanges;
import com.example.identity.common.ClusterLock;
import com.example.identity.device.DeviceAuthorizations;
import com.example.identity.device.UserCodeGuesses;
import com.example.identity.recovery.PasswordRecovery;
import com.example.identity.oauth.ExpiredAuthorizations;
import com.example.identity.oauth.RefreshTokens;
import com.example.identity.token.ApiTokenService;

/**
 * The one job that forgets what has done its work, every hour ({@code identity.retention.*}): audit rows
 * older than {@code audit} (365 days), API tokens revoked or expired longer ago than {@code tokens} (30
 * days), authorizations whose code expired longer ago than {@code codes} (1 day), device flow runs and
 * password recovery links that expired as long ago, and the login throttle's
 * pairs that are neither locked nor known any more, and the guessing budgets of {@code /activar} that are
 * full again. Each is one DELETE (the first three on an indexed time
 * column).
 * <p>
 * One instance at a time runs it ({@link ClusterLock#runIfFree}: an instance that finds another one at it
 * skips that hour's run).
 */
@Component
class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final IdentityProperties.Retention retention;
    private final AuditTrail audit;
    private final ApiTokenService tokens;
    private final ExpiredAuthorizations authorizations;
    private final Clock clock;
    private final ClusterLock locks;
    private final LoginPairs loginPairs;
    private final RefreshTokens refreshTokens;
    private final DeviceAuthorizations devices;
    private final PasswordRecovery recovery;
    private final EmailChanges emailChanges;
    private final UserCodeGuesses guesses;

    RetentionJob(IdentityProperties properties, AuditTrail audit, ApiTokenService tokens,
            ExpiredAuthorizations authorizations, Clock clock, ClusterLock locks, LoginPairs loginPairs,
            RefreshTokens refreshTokens, DeviceAuthorizations devices, PasswordRecovery recovery,
            EmailChanges emailChanges, UserCodeGuesses guesses) {
        this.guesses = guesses;
        this.emailChanges = emailChanges;
        this.devices = devices;
        this.recovery = recovery;
        this.loginPairs = loginPairs;
        this.refreshTokens = refreshTokens;
        this.retention = properties.retention();
        this.audit = audit;
        this.tokens = tokens;
        this.authorizations = authorizations;
        this.clock = clock;
        this.locks = locks;
    }

    @Scheduled(fixedDelayString = "PT1H", initialDelayString = "PT5M")
    void run() {
        locks.runIfFree("retention", this::purge);
    }

    private void purge() {
        Instant now = clock.instant();
        int ended = tokens.purgeEndedBefore(now.minus(retention.tokens()))
                + refreshTokens.purgeEndedBefore(now.minus(retention.tokens()));
        int codes = authorizations.purgeExpiredBefore(now.minus(retention.codes()), now)
                + devices.purgeExpiredBefore(now.minus(retention.codes()))
                + recovery.purgeExpiredBefore(now.minus(retention.codes()))
                + emailChanges.purgeExpiredBefore(now.minus(retention.codes()));
        int rows = audit.purgeBefore(now.minus(retention.audit()));
        int pairs = loginPairs.purgeEndedBefore(now);
        int budgets = guesses.purgeFullAt(now);
        if (codes + ended + rows + pairs + budgets > 0) {
            log.info("Retention: purged {} expired authorizations and device runs, {} ended tokens, {} audit rows, {} login pairs "
                    + "neither locked nor known, {} full guessing budgets of /activar", codes, ended, rows, pairs, budgets);
        }
    }
}
