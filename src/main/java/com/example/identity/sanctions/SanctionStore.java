package com.example.identity.sanctions;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Component;

import com.example.identity.common.SpaceSeparated;

/** The {@code sanctions} table (V76): the only SQL that names it. */
@Component
class SanctionStore {

    private static final String COLUMNS = "id, user_id, motivo, hasta, client_id, placed_by, placed_by_client, "
            + "created_at, lifted_at";

    private static final RowMapper<Sanction> ROW = SanctionStore::sanction;

    private final JdbcTemplate jdbc;

    SanctionStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Sanction insert(long userId, String motivo, @Nullable Instant hasta, @Nullable String clientId, long placedBy,
            @Nullable String placedByClient, Instant now) {
        var key = new GeneratedKeyHolder();
        jdbc.update(connection -> {
            PreparedStatement insert = connection.prepareStatement("insert into sanctions (user_id, motivo, hasta, "
                    + "client_id, placed_by, placed_by_client, created_at) values (?, ?, ?, ?, ?, ?, ?)", new String[] { "id" });
            insert.setLong(1, userId);
            insert.setString(2, motivo);
            if (hasta == null) {
                insert.setNull(3, Types.TIMESTAMP_WITH_TIMEZONE);
            }
            else {
                insert.setTimestamp(3, Timestamp.from(hasta));
            }
            insert.setString(4, clientId);
            insert.setLong(5, placedBy);
            insert.setString(6, placedByClient);
            insert.setTimestamp(7, Timestamp.from(now));
            return insert;
        }, key);
        long id = key.getKeyAs(Number.class).longValue();
        return new Sanction(id, userId, motivo, hasta, clientId, placedBy, placedByClient, now, null);
    }

    Optional<Sanction> find(long id) {
        return jdbc.query("select " + COLUMNS + " from sanctions where id = ?", ROW, id).stream().findFirst();
    }

    /** The sanctions of {@code userId} neither lifted nor ended at {@code now}: what the checks read. */
    List<Sanction> open(long userId, Instant now) {
        return jdbc.query("select " + COLUMNS + " from sanctions where user_id = ? and lifted_at is null "
                + "and (hasta is null or hasta > ?) order by id", ROW, userId, Timestamp.from(now));
    }

    /** Every sanction of {@code userId}, newest first (admins, the person's data download). */
    List<Sanction> ofUser(long userId) {
        return jdbc.query("select " + COLUMNS + " from sanctions where user_id = ? order by id desc", ROW, userId);
    }

    /** The sanctions of {@code userId} in {@code clientIds}, newest first (an owner's applications). */
    List<Sanction> ofUserIn(long userId, Collection<String> clientIds) {
        if (clientIds.isEmpty()) {
            return List.of();
        }
        return jdbc.query("select " + COLUMNS + " from sanctions where user_id = ? and client_id in (" + marks(clientIds)
                + ") order by id desc", ROW, Stream.concat(Stream.of(userId), clientIds.stream()).toArray());
    }

    /** One page of every sanction, newest first; {@code limit} rows from {@code offset}. */
    List<Sanction> page(long offset, int limit) {
        return jdbc.query("select " + COLUMNS + " from sanctions order by id desc offset ? rows fetch next ? rows only",
                ROW, offset, limit);
    }

    /** One page of the sanctions in {@code clientIds}, newest first. */
    List<Sanction> pageIn(Collection<String> clientIds, long offset, int limit) {
        if (clientIds.isEmpty()) {
            return List.of();
        }
        return jdbc.query("select " + COLUMNS + " from sanctions where client_id in (" + marks(clientIds)
                + ") order by id desc offset ? rows fetch next ? rows only", ROW,
                Stream.concat(clientIds.stream(), Stream.of(offset, limit)).toArray());
    }

    /**
     * Lifts {@code id} now unless it was lifted already or has ended (then there is nothing to lift, and the job tells
     * an end by time): one conditional UPDATE, so of two racing lifts (or a lift and the job's end) one tells the
     * applications.
     */
    boolean lift(long id, long liftedBy, Instant now) {
        Timestamp at = Timestamp.from(now);
        return jdbc.update("update sanctions set lifted_at = ?, lifted_by = ?, end_told_at = ? where id = ? "
                + "and lifted_at is null and end_told_at is null and (hasta is null or hasta > ?)", at, liftedBy, at, id,
                at) == 1;
    }

    /** Sanctions whose end came by {@code now} and was not told yet, oldest end first, at most {@code limit}. */
    List<Sanction> endedUntold(Instant now, int limit) {
        return jdbc.query("select " + COLUMNS + " from sanctions where lifted_at is null and end_told_at is null "
                + "and hasta <= ? order by hasta, id fetch first ? rows only", ROW, Timestamp.from(now), limit);
    }

    /** Marks the end of {@code id} told; false when a lift or another run did first. */
    boolean markEndTold(long id, Instant now) {
        return jdbc.update("update sanctions set end_told_at = ? where id = ? and lifted_at is null "
                + "and end_told_at is null", Timestamp.from(now), id) == 1;
    }

    void setTold(long id, Collection<String> clientIds) {
        jdbc.update("update sanctions set told_clients = ? where id = ?",
                clientIds.isEmpty() ? null : String.join(" ", clientIds), id);
    }

    /** The applications told of {@code id} when it was placed. */
    List<String> told(long id) {
        List<String> told = jdbc.query("select told_clients from sanctions where id = ?",
                (rs, i) -> rs.getString(1), id);
        return told.isEmpty() || told.get(0) == null ? List.of() : List.copyOf(SpaceSeparated.words(told.get(0)));
    }

    private static String marks(Collection<?> values) {
        return String.join(", ", Collections.nCopies(values.size(), "?"));
    }

    private static Sanction sanction(ResultSet rs, int row) throws SQLException {
        long placedBy = rs.getLong("placed_by");
        return new Sanction(rs.getLong("id"), rs.getLong("user_id"), rs.getString("motivo"), instant(rs, "hasta"),
                rs.getString("client_id"), placedBy, rs.getString("placed_by_client"), instant(rs, "created_at"),
                instant(rs, "lifted_at"));
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
