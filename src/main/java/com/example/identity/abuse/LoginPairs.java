package com.example.identity.abuse;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.Purge;

/**
 * The login throttle's facts that must outlive an instance ({@code login_pairs}, migration V16): which
 * (e-mail, address) pairs are locked until when, and which logged in successfully (known addresses).
 * Written only by the instance where the lock or the login happened, read by every instance when it
 * starts; in between, instances tell each other by message ({@link LoginThrottleReplication}). Pairs are digests.
 */
@Component
@DependsOnDatabaseInitialization
public class LoginPairs implements Purge {

    /** A pair's lasting state; either time may be null. */
    record Pair(String digest, @Nullable Instant lockedUntil, @Nullable Instant knownUntil) {
    }

    private final JdbcTemplate jdbc;

    LoginPairs(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The pair is locked until {@code until}. */
    void lock(String digest, Instant until) {
        upsert(digest, "update login_pairs set locked_until = ? where pair_digest = ?",
                "insert into login_pairs (pair_digest, locked_until) values (?, ?)", until);
    }

    /** The pair logged in: known until {@code until}, and no longer locked. */
    void known(String digest, Instant until) {
        upsert(digest, "update login_pairs set known_until = ?, locked_until = null where pair_digest = ?",
                "insert into login_pairs (pair_digest, known_until) values (?, ?)", until);
    }

    /** Update, else insert; an insert that lost the race to another instance's becomes the update. */
    private void upsert(String digest, String update, String insert, Instant until) {
        Timestamp at = Timestamp.from(until);
        if (jdbc.update(update, at, digest) > 0) {
            return;
        }
        try {
            jdbc.update(insert, digest, at);
        }
        catch (DuplicateKeyException raced) {
            jdbc.update(update, at, digest);
        }
    }

    /** The pairs still locked or known at {@code now}, the latest first, at most {@code limit}. */
    List<Pair> current(Instant now, int limit) {
        Timestamp at = Timestamp.from(now);
        return jdbc.query("""
                select pair_digest, locked_until, known_until from login_pairs
                where locked_until > ? or known_until > ?
                order by coalesce(known_until, locked_until) desc
                fetch first %d rows only""".formatted(limit),
                (rs, i) -> new Pair(rs.getString(1), instant(rs.getTimestamp(2)), instant(rs.getTimestamp(3))), at, at);
    }

    @Override
    public Kind kind() {
        return Kind.LOGIN_PAIRS;
    }

    /** Deletes the pairs neither locked nor known at {@code now} (the retention job; its cutoff is now). */
    @Override
    public int purge(Instant cutoff, Instant now) {
        Timestamp at = Timestamp.from(now);
        return jdbc.update("""
                delete from login_pairs
                where (locked_until is null or locked_until <= ?) and (known_until is null or known_until <= ?)""", at, at);
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
