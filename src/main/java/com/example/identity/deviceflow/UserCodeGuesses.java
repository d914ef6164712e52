package com.example.identity.deviceflow;

import java.time.Clock;
import java.time.Instant;

import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.abuse.RateLimits;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;

/**
 * The guessing budget of {@code /activar} (decisions §16; docs/native-and-device.md): every code typed there
 * takes one unit of its source address's budget and one of its account's <em>before</em> it is looked up,
 * and a right code gives both back, so only wrong (or expired) codes spend them. Each budget holds
 * {@code identity.rate-limit.user-code-failures} units (default 10) and refills over 10 minutes, a code's
 * lifetime ({@link RateLimits#USER_CODE_PERIOD}).
 *
 * <p>Taking is one conditional UPDATE of the key's row in {@code user_code_budgets} (migration V34): a
 * GCRA, where the row holds the time at which the budget would be full again plus one interval
 * ({@code period / capacity}); a unit may be taken while that time, moved to now if it is past, plus one
 * interval is not beyond now plus the period. The database serialises concurrent UPDATEs of one row and
 * each re-reads the condition, so parallel requests, on one instance or many, never evaluate more codes than
 * the budget: the check and the spending are one step, not a check followed by a later record.
 */
@Component
@DependsOnDatabaseInitialization
public class UserCodeGuesses implements Purge {

    private final IdentityProperties.RateLimit settings;
    private final JdbcTemplate jdbc;
    private final Clock clock;

    UserCodeGuesses(IdentityProperties properties, JdbcTemplate jdbc, Clock clock) {
        this.settings = properties.rateLimit();
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The key of a source address ({@code abuse/ClientAddress}). */
    static String address(String addressKey) {
        return "direccion " + addressKey;
    }

    /** The key of an account. */
    static String account(long userId) {
        return "cuenta " + userId;
    }

    /**
     * Takes one unit of every key's budget, all or none: 0 when taken, else the seconds until the first
     * spent budget has a unit again (units taken from the others are given back). Always 0 when rate limits
     * are off.
     */
    long take(String... keys) {
        if (!settings.enabled()) {
            return 0;
        }
        for (int i = 0; i < keys.length; i++) {
            long wait = takeOne(Secrets.sha256Hex(keys[i]));
            if (wait > 0) {
                for (int j = 0; j < i; j++) {
                    giveBackOne(Secrets.sha256Hex(keys[j]));
                }
                return wait;
            }
        }
        return 0;
    }

    /** Gives back the unit {@link #take} took from each key (the code was right). */
    void giveBack(String... keys) {
        if (!settings.enabled()) {
            return;
        }
        for (String key : keys) {
            giveBackOne(Secrets.sha256Hex(key));
        }
    }

    @Override
    public Kind kind() {
        return Kind.GUESSING_BUDGETS;
    }

    /** The retention job: forgets the budgets that are full again at {@code now} (the same as no row). */
    @Override
    public int purge(Instant cutoff, Instant now) {
        return jdbc.update("delete from user_code_budgets where next_free_ms < ?", now.toEpochMilli());
    }

    private long interval() {
        return RateLimits.USER_CODE_PERIOD.toMillis() / settings.userCodeFailures();
    }

    private long takeOne(String digest) {
        long interval = interval();
        long period = interval * settings.userCodeFailures();
        for (int attempt = 0; attempt < 2; attempt++) {
            long now = clock.millis();
            if (jdbc.update("update user_code_budgets set next_free_ms = greatest(next_free_ms, ?) + ? "
                    + "where key_digest = ? and greatest(next_free_ms, ?) + ? <= ?",
                    now, interval, digest, now, interval, now + period) == 1) {
                return 0;
            }
            Long next = jdbc.query("select next_free_ms from user_code_budgets where key_digest = ?",
                    rs -> rs.next() ? rs.getLong(1) : null, digest);
            if (next != null) {
                long waitMillis = Math.max(next, now) + interval - (now + period);
                return Math.max(1, (waitMillis + 999) / 1000);
            }
            try {
                jdbc.update("insert into user_code_budgets (key_digest, next_free_ms) values (?, ?)", digest,
                        now + interval);
                return 0;
            }
            catch (DuplicateKeyException raced) {
                // another request made the row meanwhile: take from it as from any row
            }
        }
        // refused twice in a row by races on a brand-new row: counted as spent for now
        return 1;
    }

    private void giveBackOne(String digest) {
        jdbc.update("update user_code_budgets set next_free_ms = next_free_ms - ? where key_digest = ?", interval(),
                digest);
    }
}
