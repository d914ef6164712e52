package com.example.identity.account;

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * One request per account at a time, on every instance: the account's {@code users} row locked until the caller's
 * transaction ends, for a feature whose check-then-write must not race another request of the same account (the
 * recovery's budget, the last way to log in of an unlink, the webhooks' read of a changed account in commit order);
 * only account/ names {@code users} (issue 41).
 */
@Component
public class AccountLocks {

    private final JdbcTemplate jdbc;

    AccountLocks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks account {@code userId}'s row (nothing when there is none) until the transaction ends. */
    public void lock(long userId) {
        jdbc.queryForList("select id from users where id = ? for update", Long.class, userId);
    }

    /** What the webhooks tell of an account, as its row holds it. */
    public record Profile(long id, String primerNombre, @Nullable String correo, String rol, boolean enabled) {
    }

    /** Locks account {@code userId}'s row and reads it; empty when the account is gone. */
    public Optional<Profile> lockAndRead(long userId) {
        List<Profile> found = jdbc.query("select primer_nombre, correo, rol, enabled from users where id = ? for update",
                (rs, i) -> new Profile(userId, rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4)), userId);
        return found.stream().findFirst();
    }
}
