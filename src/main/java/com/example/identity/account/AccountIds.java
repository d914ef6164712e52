package com.example.identity.account;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.audit.ActorAccounts;

/**
 * The account that holds an address now, by its id: for the audit trail's lines as they are written (audit/'s
 * {@link ActorAccounts}, issue 39.6) and for the lists searched by an owner's address (client/, apitoken/), so that
 * only account/ names {@code users} (issue 41).
 */
@Component
public class AccountIds implements ActorAccounts {

    private final JdbcTemplate jdbc;

    AccountIds(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The id of the account whose address is {@code correo} (in any letter case), or null. */
    public @Nullable Long ofEmail(String correo) {
        List<Long> found = jdbc.queryForList("select id from users where correo = ?", Long.class,
                correo.toLowerCase(Locale.ROOT));
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public @Nullable Long accountOf(String actor) {
        return ofEmail(actor);
    }
}
