package com.example.identity.support;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

/**
 * The tables that refer to {@code users} by a foreign key, read from the database's metadata (H2 and PostgreSQL
 * alike): the account deletion's tests check that none of them keeps a row of a deleted account, whatever migration
 * added it (each feature forgets its own rows, common/PersonalData).
 */
public final class UserKeyedTables {

    /** {@code table.column} refers to {@code parent.parentColumn}. */
    public record Reference(String table, String column, String parent, String parentColumn) {
    }

    private final DataSource dataSource;

    public UserKeyedTables(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Every column (lower-case {@code table.column}) that refers to {@code users.id}. */
    public List<Reference> referencesToUsers() {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            String name = meta.storesUpperCaseIdentifiers() ? "USERS" : "users";
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
            throw new IllegalStateException("cannot read the foreign keys to users", e);
        }
    }

    private static String lower(String identifier) {
        return identifier.toLowerCase(Locale.ROOT);
    }
}
