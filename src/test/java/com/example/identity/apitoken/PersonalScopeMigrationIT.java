package com.example.identity.apitoken;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * V10 on a database that already has tokens: personal tokens made before scopes existed were accepted at
 * the management routes, so they become {@code gestion}; tokens issued to OAuth clients get no personal
 * scope. (New personal tokens are {@code perfil} by default: the application sets it.) On a database of
 * its own, migrated by Flyway up to just before V10, given rows, then migrated to the end.
 */
class PersonalScopeMigrationIT {

    /** As the application migrates an H2 database (spring.flyway.locations with {vendor} = h2). */
    private static final String[] LOCATIONS = { "classpath:db/migration", "classpath:db/vendor/h2" };

    @Test
    void existingPersonalTokensKeepTheManagementRoutes() {
        var dataSource = new DriverManagerDataSource("jdbc:h2:mem:v10-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        var beforeV10 = Arrays.stream(Flyway.configure().dataSource(dataSource).locations(LOCATIONS).load().info().all())
                .map(MigrationInfo::getVersion).filter(v -> v.compareTo(MigrationVersion.fromVersion("10")) < 0)
                .max(Comparator.naturalOrder()).orElseThrow();
        Flyway.configure().dataSource(dataSource).locations(LOCATIONS).target(beforeV10).load().migrate();
        var jdbc = new JdbcTemplate(dataSource);
        jdbc.update("insert into users (primer_nombre, correo, password_hash, rol, enabled, created_at, updated_at) "
                + "values ('Old', 'old@example.com', 'x', 'developer_api', true, current_timestamp, current_timestamp)");
        long user = jdbc.queryForObject("select id from users where correo = 'old@example.com'", Long.class);
        jdbc.update("insert into api_tokens (user_id, name, token_digest, prefix, kind, created_at) "
                + "values (?, 'script', ?, 'aaaaaaaa', 'personal', current_timestamp)", user, "a".repeat(64));
        jdbc.update("insert into api_tokens (user_id, name, token_digest, prefix, kind, client_id, scopes, created_at) "
                + "values (?, 'OAuth x', ?, 'bbbbbbbb', 'oauth', 'x', 'openid email', current_timestamp)", user, "b".repeat(64));

        Flyway.configure().dataSource(dataSource).locations(LOCATIONS).load().migrate();

        assertThat(jdbc.query("select kind, personal_scope from api_tokens order by id",
                (row, i) -> row.getString(1) + "=" + row.getString(2))).containsExactly("personal=gestion", "oauth=null");
    }
}
