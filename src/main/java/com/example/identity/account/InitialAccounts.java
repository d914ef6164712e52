package com.example.identity.account;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.common.ClusterLock;
import com.example.identity.crypto.Secrets;

/**
 * Fills an empty database at start: the demo data of decisions §9 when {@code identity.demo-data} is on
 * (by default only on the embedded H2 database), otherwise the first administrator.
 *
 * <p>Other features add their own demo objects by listening for {@link DemoAccountsCreated}.
 */
@Component
@Order(0)
class InitialAccounts implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(InitialAccounts.class);

    private final AccountService accounts;
    private final IdentityProperties properties;
    private final DataSource dataSource;
    private final ApplicationEventPublisher events;
    private final ClusterLock locks;

    InitialAccounts(AccountService accounts, IdentityProperties properties, DataSource dataSource,
            ApplicationEventPublisher events, ClusterLock locks) {
        this.locks = locks;
        this.accounts = accounts;
        this.properties = properties;
        this.dataSource = dataSource;
        this.events = events;
    }

    /**
     * Several instances may start together on an empty database (decisions §13): the check and the
     * creation run in one transaction holding the {@code first-start} lock, so exactly one instance
     * creates the accounts and the others find them.
     */
    @Override
    public void run(ApplicationArguments args) throws Exception {
        // The import command (migration/ImportCommand) brings the first accounts itself: a first admin or
        // demo accounts made before it would take ids and e-mail addresses the import must keep.
        if (args.getNonOptionArgs().contains("import")) {
            return;
        }
        boolean demo = demoDataEnabled();
        locks.holding("first-start", () -> {
            if (accounts.isEmpty()) {
                if (demo) {
                    createDemoData();
                } else {
                    createFirstAdmin();
                }
            }
            return null;
        });
    }

    private boolean demoDataEnabled() throws Exception {
        if (properties.demoData() != null) {
            return properties.demoData();
        }
        String product = JdbcUtils.extractDatabaseMetaData(dataSource, md -> md.getDatabaseProductName());
        return "H2".equalsIgnoreCase(product);
    }

    private void createDemoData() {
        accounts.create("Ada", "admin@example.com", "admin-demo-password", Role.ADMIN);
        UserAccount dev = accounts.create("Diego", "dev@example.com", "dev-demo-password", Role.DEVELOPER_API);
        accounts.create("Lucía", "user@example.com", "user-demo-password", Role.USER);
        events.publishEvent(new DemoAccountsCreated(dev.getId()));
        log.warn("DEMO DATA: created the demo accounts admin@example.com, dev@example.com and user@example.com "
                + "with publicly known passwords. Never use demo data in production (identity.demo-data=false).");
    }

    private void createFirstAdmin() {
        var bootstrap = properties.bootstrapAdmin();
        String email = bootstrap.email() == null || bootstrap.email().isBlank() ? "admin@localhost" : bootstrap.email();
        boolean generated = bootstrap.password() == null || bootstrap.password().isEmpty();
        String password = generated ? randomPassword() : bootstrap.password();
        if (generated) {
            accounts.createWithLoggedPassword("Admin", email, password, Role.ADMIN);
            // Printed exactly once, on the start that creates the account; it is never stored in plain text.
            log.warn("FIRST ADMIN: created {} with the generated password {} - it must be changed at the first login; "
                    + "set IDENTITY_BOOTSTRAP_ADMIN_EMAIL and IDENTITY_BOOTSTRAP_ADMIN_PASSWORD to choose them.",
                    email, password);
        } else {
            accounts.create("Admin", email, password, Role.ADMIN);
            log.info("FIRST ADMIN: created {} from IDENTITY_BOOTSTRAP_ADMIN_EMAIL/PASSWORD.", email);
        }
    }

    private static String randomPassword() {
        return Secrets.randomUrlSafe(18);
    }
}
