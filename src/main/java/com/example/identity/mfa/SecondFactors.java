package com.example.identity.mfa;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AuditEvent;
import com.example.identity.crypto.Secrets;

/**
 * An account's second factors (decisions §17): a TOTP secret and its recovery codes. Every check is one
 * conditional UPDATE, so a code is accepted once however many instances see it: a TOTP code only for a
 * step later than the last accepted one (a code read over a shoulder cannot be replayed within its 90
 * seconds), a recovery code only while unused. Every change is audited.
 */
@Component
public class SecondFactors {

    static final int RECOVERY_CODES = 10;
    private static final String RECOVERY_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    SecondFactors(JdbcTemplate jdbc, ApplicationEventPublisher events, Clock clock) {
        this.jdbc = jdbc;
        this.events = events;
        this.clock = clock;
    }

    /** What a typed code proved. */
    public enum Proof {
        /** A code of the authenticator app. */
        TOTP,
        /** One of the recovery codes, now spent. */
        RECOVERY_CODE,
        /** Nothing: a wrong, reused or malformed code. */
        NONE
    }

    @Transactional(readOnly = true)
    public boolean hasTotp(long userId) {
        return !jdbc.queryForList("select user_id from user_totp where user_id = ?", Long.class, userId).isEmpty();
    }

    /** How many unused recovery codes the account has left. */
    @Transactional(readOnly = true)
    public int recoveryCodesLeft(long userId) {
        Integer left = jdbc.queryForObject("select count(*) from recovery_codes where user_id = ? and used_at is null",
                Integer.class, userId);
        return left == null ? 0 : left;
    }

    /** A secret for a new enrolment, kept by the caller (the session) until {@link #enable} confirms it. */
    public String newSecret() {
        return Totp.newSecret();
    }

    /** The enrolment's QR code (inline SVG) for {@code secret}. */
    public String qrCode(String issuerName, String account, String secret) {
        return QrCodes.svg(Totp.uri(issuerName, account, secret));
    }

    /**
     * Turns TOTP on with {@code secret} once {@code code} proves the app computes it (replacing an earlier
     * secret), and makes 10 new recovery codes (the old ones end).
     *
     * @return the recovery codes, shown once; empty when {@code code} is not the secret's current code
     */
    @Transactional
    public List<String> enable(long userId, String secret, String code) {
        OptionalLong step = Totp.matchingStep(secret, code, clock.instant());
        if (step.isEmpty()) {
            return List.of();
        }
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.update("delete from user_totp where user_id = ?", userId);
        jdbc.update("insert into user_totp (user_id, secret, created_at, last_used_step) values (?, ?, ?, ?)", userId,
                secret, now, step.getAsLong());
        List<String> codes = newRecoveryCodes(userId);
        events.publishEvent(new AuditEvent(AuditEvent.Type.MFA_ENABLED, "usuario #" + userId));
        return codes;
    }

    /** Ten new recovery codes for an account with TOTP; the old ones end. Audited. */
    @Transactional
    public List<String> regenerateRecoveryCodes(long userId) {
        List<String> codes = newRecoveryCodes(userId);
        events.publishEvent(new AuditEvent(AuditEvent.Type.MFA_RECOVERY_CODES_RENEWED, "usuario #" + userId));
        return codes;
    }

    private List<String> newRecoveryCodes(long userId) {
        jdbc.update("delete from recovery_codes where user_id = ?", userId);
        Timestamp now = Timestamp.from(clock.instant());
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < RECOVERY_CODES; i++) {
            String code = recoveryCode();
            jdbc.update("insert into recovery_codes (user_id, code_digest, created_at) values (?, ?, ?)", userId,
                    Secrets.sha256Hex(code), now);
            codes.add(code);
        }
        return codes;
    }

    /** 16 characters from 32 unambiguous ones (80 bits), shown as four groups of four. */
    private static String recoveryCode() {
        byte[] random = java.util.HexFormat.of().parseHex(Secrets.randomHex(16));
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            if (i > 0 && i % 4 == 0) {
                code.append('-');
            }
            code.append(RECOVERY_ALPHABET.charAt((random[i] & 0xff) % RECOVERY_ALPHABET.length()));
        }
        return code.toString();
    }

    /** Turns the second factor off: the secret and the recovery codes are deleted. Audited. */
    @Transactional
    public void disable(long userId) {
        jdbc.update("delete from user_totp where user_id = ?", userId);
        jdbc.update("delete from recovery_codes where user_id = ?", userId);
        events.publishEvent(new AuditEvent(AuditEvent.Type.MFA_DISABLED, "usuario #" + userId));
    }

    /**
     * Checks a code typed at the login's second step: a TOTP code (accepted once per step) or an unused
     * recovery code (then spent).
     */
    @Transactional
    public Proof verify(long userId, String typed) {
        if (typed == null || typed.length() > 64) {
            return Proof.NONE;
        }
        String code = typed.strip();
        if (code.replace(" ", "").matches("\\d{6}")) {
            List<String> secret = jdbc.queryForList("select secret from user_totp where user_id = ?", String.class, userId);
            if (secret.isEmpty()) {
                return Proof.NONE;
            }
            OptionalLong step = Totp.matchingStep(secret.get(0), code, clock.instant());
            if (step.isPresent() && jdbc.update("update user_totp set last_used_step = ? where user_id = ? "
                    + "and (last_used_step is null or last_used_step < ?)", step.getAsLong(), userId,
                    step.getAsLong()) == 1) {
                return Proof.TOTP;
            }
            return Proof.NONE;
        }
        String normalized = code.toLowerCase(Locale.ROOT).replace(" ", "").replace("-", "");
        if (!normalized.matches("[a-z0-9]{16}")) {
            return Proof.NONE;
        }
        String formatted = normalized.substring(0, 4) + "-" + normalized.substring(4, 8) + "-" + normalized.substring(8, 12)
                + "-" + normalized.substring(12);
        int spent = jdbc.update("update recovery_codes set used_at = ? where user_id = ? and code_digest = ? "
                + "and used_at is null", Timestamp.from(clock.instant()), userId, Secrets.sha256Hex(formatted));
        if (spent == 1) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.MFA_RECOVERY_CODE_USED, "usuario #" + userId));
            return Proof.RECOVERY_CODE;
        }
        return Proof.NONE;
    }
}
