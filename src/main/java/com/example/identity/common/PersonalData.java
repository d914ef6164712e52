package com.example.identity.common;

import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One section of a person's data download ({@code /cuenta/datos}, decisions §20, GDPR art. 15 and 20), filled by
 * the feature that owns its rows: the download ({@code settings/DataExport}) collects every {@code PersonalData} as
 * the retention job collects every {@link Purge}, instead of reading the features' tables; and the account's
 * deletion asks each to forget its rows the same way. Never a secret, a digest or key material.
 */
public interface PersonalData {

    /** Whose download: the account, its address (null for a guest), the session asking (marked as the current one). */
    record Person(long userId, @Nullable String correo, @Nullable String currentSessionId) {
    }

    /** The section's name in the download ({@code "tokens_api"}); one feature fills each. */
    String section();

    /** The tables whose rows about the person this section shows (a table keyed by the user must be in one). */
    Set<String> tables();

    /** What the section holds for {@code person}: rows, one row, or null. */
    @Nullable Object of(Person person);

    /**
     * The account's deletion (account/AccountDeletion, decisions §20), in its transaction, while the {@code users} row
     * still exists: deletes the person's rows of this section's tables, and the rows that refer to those. A row left
     * that refers to the account fails the deletion at its {@code users} row (the foreign key).
     */
    void forget(Person person);

    /** {@code sql}'s rows as the download shows them: lower-case names, times as ISO-8601 instants. */
    static List<Map<String, Object>> rows(JdbcTemplate jdbc, String sql, Object... args) {
        return jdbc.queryForList(sql, args).stream().map(PersonalData::plain).toList();
    }

    /** A row as the download shows it (H2 answers in capitals; times whatever the driver gives). */
    static Map<String, Object> plain(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>();
        row.forEach((name, value) -> out.put(name.toLowerCase(Locale.ROOT), plain(value)));
        return out;
    }

    private static @Nullable Object plain(@Nullable Object value) {
        if (value instanceof Timestamp t) {
            return t.toInstant().toString();
        }
        if (value instanceof OffsetDateTime t) {
            return t.toInstant().toString();
        }
        return value;
    }
}
