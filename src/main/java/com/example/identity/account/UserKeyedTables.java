package com.example.identity.account;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The tables that refer to {@code users} by a foreign key, read from the database's metadata (H2 and PostgreSQL
 * alike), and the tables that refer to those, a few levels deep: an account's deletion removes their rows,
 * children first, whatever migration added them. Read once per instance (the schema does not change while it
 * runs).
 */
@Component
public class UserKeyedTables {

    /** {@code table.column} refers to {@code parent.parentColumn}. */
    public record Reference(String table, String column, String parent, String parentColumn) {
    }

    private static final int MAX_DEPTH = 4;

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private volatile List<Reference> toUsers;

    UserKeyedTables(DataSource dataSource, JdbcTemplate jdbc) {
        this.dataSource = dataSource;
        this.jdbc = jdbc;
    }

    /** Every column (lower-case {@code table.column}) that refers to {@code users.id}. */
    public List<Reference> referencesToUsers() {
        List<Reference> known = toUsers;
        if (known == null) {
            known = referencesTo("users");
            toUsers = known;
        }
        return known;
    }

    /** Deletes every row that refers to account {@code userId}, and the rows that refer to those. */
    void deleteRowsOf(long userId) {
        for (Reference reference : referencesToUsers()) {
            String where = reference.column() + " = ?";
            deleteReferencing(reference.table(), where, userId, 1);
            jdbc.update("delete from " + reference.table() + " where " + where, userId);
        }
    }

    private void deleteReferencing(String table, String where, long userId, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("references to users nested deeper than " + MAX_DEPTH + " at " + table);
        }
        for (Reference child : referencesTo(table)) {
            if (child.table().equals(table)) {
                continue;
            }
            String childWhere = child.column() + " in (select " + child.parentColumn() + " from " + table + " where "
                    + where + ")";
            deleteReferencing(child.table(), childWhere, userId, depth + 1);
            jdbc.update("delete from " + child.table() + " where " + childWhere, userId);
        }
    }

    private List<Reference> referencesTo(String table) {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            String name = meta.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
            List<Reference> found = new ArrayList<>();
            try (ResultSet keys = meta.getExportedKeys(connection.getCatalog(), connection.getSchema(), name)) {
                while (keys.next()) {
                    found.add(new Reference(lower(keys.getString("FKTABLE_NAME")), lower(keys.getString("FKCOLUMN_NAME")),
                            lower(keys.getString("PKTABLE_NAME")), lower(keys.getString("PKCOLUMN_NAME"))));
                }
            }
            return List.copyOf(found);
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot read the foreign keys to " + table, e);
        }
    }

    private static String lower(String identifier) {
        return identifier.toLowerCase(Locale.ROOT);
    }
}
