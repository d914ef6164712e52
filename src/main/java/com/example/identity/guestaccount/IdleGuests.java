package com.example.identity.guestaccount;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountDeletion;
import com.example.identity.common.Purge;

/**
 * The retention job's part of decisions §24: a guest whose tokens were not issued for {@code identity.guests.max-idle}
 * (90 days) is deleted as decisions §20 deletes any account ({@link AccountDeletion#deleteIdleGuest}: its tokens,
 * refresh families and every row keyed by it go, its id is never given again, the applications it used hear
 * {@code usuario.eliminado}). At most {@value #PER_RUN} an hourly run, the longest idle first, so one run stays short
 * however many guests a game left behind.
 */
@Component
class IdleGuests implements Purge {

    static final int PER_RUN = 500;

    private final JdbcTemplate jdbc;
    private final AccountDeletion deletion;
    private final GuestSettings settings;

    IdleGuests(JdbcTemplate jdbc, AccountDeletion deletion, GuestSettings settings) {
        this.jdbc = jdbc;
        this.deletion = deletion;
        this.settings = settings;
    }

    @Override
    public Kind kind() {
        return Kind.IDLE_GUESTS;
    }

    /** Deletes the guests last used before {@code now} minus {@code max-idle} ({@code cutoff} is now: the setting is this feature's). */
    @Override
    public int purge(Instant cutoff, Instant now) {
        List<Long> idle = jdbc.queryForList("select user_id from guests where last_used_at < ? order by last_used_at, user_id "
                + "fetch first " + PER_RUN + " rows only", Long.class, Timestamp.from(now.minus(settings.maxIdle())));
        int deleted = 0;
        for (long userId : idle) {
            if (deletion.deleteIdleGuest(userId) == AccountDeletion.Outcome.DELETED) {
                deleted++;
            }
        }
        return deleted;
    }
}
