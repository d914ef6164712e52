package com.example.identity.migration;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ParameterizedPreparedStatementSetter;

/**
 * What the imports of users ({@link UserImport}), applications ({@link ClientImport}) and tokens
 * ({@link TokenImport}) share: an owner checked against the known users, the decision on a row that differs
 * from the database, and batched JDBC writes.
 */
final class ImportRows {

    /** Rows per JDBC batch, and digests per lookup of existing tokens. */
    static final int BATCH = 1000;

    private ImportRows() {
    }

    /** The owner named by {@code field}, or null (and a problem of the line) when no known user has that id. */
    @Nullable
    static Long owner(JsonLines.Line line, String field, Set<Long> knownOwners) {
        Long owner = line.positiveLong(field);
        if (owner != null && !knownOwners.contains(owner)) {
            line.problem(field, "el usuario " + owner + " no existe (ni en el fichero de usuarios ni en la base de datos)");
            return null;
        }
        return owner;
    }

    /**
     * A line whose row is already in the database: unchanged, or changed ({@code change} runs) with
     * {@code --update}, or else a problem naming the {@code changed} fields.
     */
    static void decide(List<String> changed, boolean update, ImportReport report, String file, long line,
            String what, ImportReport.Counts counts, Runnable change) {
        if (changed.isEmpty()) {
            counts.unchanged++;
        } else if (update) {
            change.run();
            counts.updated++;
        } else {
            report.problem(file, line, String.join(",", changed), what
                    + " ya existe en la base de datos con otros valores; --update lo actualiza");
        }
    }

    /** The statement for every row, in batches of {@link #BATCH}; nothing for no rows. */
    static <T> void batch(JdbcTemplate jdbc, String sql, Collection<T> rows, ParameterizedPreparedStatementSetter<T> setter) {
        if (!rows.isEmpty()) {
            jdbc.batchUpdate(sql, rows, BATCH, setter);
        }
    }

    static void time(PreparedStatement ps, int index, @Nullable OffsetDateTime value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setObject(index, value);
        }
    }

    static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
