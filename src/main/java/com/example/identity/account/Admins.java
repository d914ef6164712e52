package com.example.identity.account;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.ClusterLock;

/**
 * The rule that the service always keeps an enabled admin (issue 39): an admin never demotes, disables or deletes
 * themselves, but two admins demoting each other, or deleting their own accounts, at the same moment would each
 * see the other still there. So every change that may take an enabled admin away first takes the {@value #LOCK}
 * row of {@code cluster_locks} (migration V58) in its own transaction ({@link #lock}), then counts the enabled
 * admins that would remain ({@link #remainWithout}): the second of two such changes, on any instance, waits for the
 * first to commit and counts after it. A count rather than locks on the admins' rows: it works the same on H2 and
 * PostgreSQL and cannot deadlock with the rows each change updates.
 */
@Component
class Admins {

    static final String LOCK = "admins";

    private final ClusterLock lock;
    private final JdbcTemplate jdbc;

    Admins(ClusterLock lock, JdbcTemplate jdbc) {
        this.lock = lock;
        this.jdbc = jdbc;
    }

    /** Takes the lock in the caller's transaction, before anything it reads or changes of the accounts. */
    void lock() {
        lock.holdInThisTransaction(LOCK);
    }

    /**
     * Whether an enabled admin remains once account {@code userId} is no longer one (demoted, disabled or
     * deleted); true at once when it is not one now. Read under {@link #lock}.
     */
    boolean remainWithout(long userId) {
        Integer self = jdbc.queryForObject("select count(*) from users where id = ? and rol = ? and enabled = true",
                Integer.class, userId, Role.ADMIN.value());
        if (self == null || self == 0) {
            return true;
        }
        Integer others = jdbc.queryForObject("select count(*) from users where rol = ? and enabled = true and id <> ?",
                Integer.class, Role.ADMIN.value(), userId);
        return others != null && others > 0;
    }
}
