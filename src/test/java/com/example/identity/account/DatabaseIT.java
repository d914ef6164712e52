package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;

import com.example.identity.support.IntegrationTest;

/** Migrations and demo data, on whichever database the run uses (H2 by default, PostgreSQL in CI). */
@IntegrationTest
class DatabaseIT {

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    UserAccountRepository users;

    @Autowired
    PasswordEncoder passwordEncoder;

    /** .ci/run sets IDENTITY_TEST_DATABASE=postgresql: make sure the run did not quietly fall back to H2. */
    @Test
    void runsOnTheDatabaseThisRunAskedFor() throws Exception {
        String expected = System.getenv().getOrDefault("IDENTITY_TEST_DATABASE", "h2");
        String product;
        try (var connection = jdbc.getDataSource().getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
        }
        assertThat(product.toLowerCase(java.util.Locale.ROOT)).isEqualTo(expected);
    }

    @Test
    void everyMigrationApplied() {
        List<Boolean> success = jdbc.queryForList("select \"success\" from \"flyway_schema_history\" where \"version\" is not null",
                Boolean.class);
        assertThat(success).isNotEmpty().allMatch(Boolean.TRUE::equals);
    }

    @Test
    void demoAccountsExistWithArgon2idHashes() {
        var admin = users.findByCorreo("admin@example.com").orElseThrow();
        var dev = users.findByCorreo("dev@example.com").orElseThrow();
        var user = users.findByCorreo("user@example.com").orElseThrow();

        assertThat(admin.getPrimerNombre()).isEqualTo("Ada");
        assertThat(admin.getRol()).isEqualTo(Role.ADMIN);
        assertThat(dev.getPrimerNombre()).isEqualTo("Diego");
        assertThat(dev.getRol()).isEqualTo(Role.DEVELOPER_API);
        assertThat(user.getPrimerNombre()).isEqualTo("Lucía");
        assertThat(user.getRol()).isEqualTo(Role.USER);
        assertThat(dev.getPasswordHash()).startsWith("{argon2}$argon2id$v=19$m=12288,t=3,p=1$");
        assertThat(passwordEncoder.matches("dev-demo-password", dev.getPasswordHash())).isTrue();
        assertThat(jdbc.queryForObject("select rol from users where correo = 'dev@example.com'", String.class))
                .isEqualTo("developer_api");
    }

    @Test
    void emailsAreUniqueCaseInsensitively() {
        var service = accountService;
        service.create("Eva", "Eva.Unique@Example.com", "a-long-enough-password", Role.USER);

        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> service.create("Eva", "EVA.unique@example.COM", "a-long-enough-password", Role.USER))
                .isInstanceOf(AccountService.EmailAlreadyUsedException.class);
        assertThat(service.findByEmail("eva.UNIQUE@example.com")).isPresent();
    }

    @Autowired
    AccountService accountService;
}
