package com.example.identity.migration;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.EmailChanges;
import com.example.identity.account.ImportedPasswordHashes;
import com.example.identity.account.ProfileChanged;
import com.example.identity.account.Role;
import com.example.identity.account.RoleChanged;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientService;
import com.example.identity.client.RedirectUriRule;
import com.example.identity.crypto.Secrets;
import com.example.identity.apitoken.ApiTokenService;

/**
 * Imports users, API tokens and OAuth applications exported from the system this service replaces.
 * <p>
 * Every line of every file is checked first, with the rules the service applies to what it makes itself
 * (e-mail shape and {@link UserAccount#normalizeEmail}, {@link Role}, {@link ImportedPasswordHashes},
 * 64-hex tokens kept as {@link Secrets#sha256Hex} digests, {@link RedirectUriRule}), against the other
 * lines and against the database. Only when there is no problem at all is anything written: one
 * transaction per file (users, then applications, then tokens), as batched JDBC statements. Not through
 * the JPA repositories: users keep their old ids, which an {@code IDENTITY} entity cannot insert, and
 * 300,000 rows go in batches without the persistence context. Password hashes are stored as given, with
 * their encoder id; nothing is hashed here.
 * <p>
 * The same files again change nothing. A line that differs from the row already in the database (a
 * revocation, a disabled account, a new name) is a problem unless {@code --update} is given; then the row
 * is updated. Some differences are problems even with {@code --update}: an id taken by an account that
 * was not imported, a token or application that would change owner. An import never un-revokes.
 * <p>
 * An update has every effect of the same change made in the service, through the same services and events,
 * for the changed rows only: an application revoked by {@link ClientService#revoke} (its access and refresh
 * tokens with it), a token revoked by {@link ApiTokenService#revoke}, an address changed as
 * {@link EmailChanges#followChange} does (sessions under the old address ended, passkeys renamed), a role
 * by {@link RoleChanged}, and {@link AccountChanged} or {@link ProfileChanged} where the admin page or the
 * account page publish them; every other changed row is evicted from the caches. So every instance sees
 * the change at commit (PostgreSQL NOTIFY), and the audit trail names the operator, as for their own.
 * <p>
 * One class per file checks it, writes it and follows its changed rows: {@link UserImport},
 * {@link ClientImport} (applications stay first-party, as in the old system) and {@link TokenImport}. This
 * one runs them in order, each file's writes in a transaction of its own, and builds the report.
 */
@Service
public class LegacyImport {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final UserImport users;
    private final ClientImport clients;
    private final TokenImport tokens;

    LegacyImport(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock, ApplicationEventPublisher events,
            UserImport users, ClientImport clients, TokenImport tokens) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.clock = clock;
        this.events = events;
        this.users = users;
        this.clients = clients;
        this.tokens = tokens;
    }

    /**
     * Validates the given files and, when nothing is wrong and it is not a dry run, writes them.
     *
     * @param operator who runs it (the OS user), for the audit trail
     */
    public ImportReport run(ImportOptions options, String operator) {
        var report = new ImportReport(options.dryRun());
        Set<Long> knownOwners = new HashSet<>(jdbc.queryForList("select id from users", Long.class));
        // in this order: the users file adds its ids to the owners that applications and tokens may name
        UserImport.Plan userPlan = options.users() == null ? null
                : users.plan(options.users(), options.update(), report, knownOwners);
        ClientImport.Plan clientPlan = options.clients() == null ? null
                : clients.plan(options.clients(), options.update(), report, knownOwners);
        TokenImport.Plan tokenPlan = options.tokens() == null ? null
                : tokens.plan(options.tokens(), options.update(), report, knownOwners);
        if (!report.problems().isEmpty() || options.dryRun()) {
            return report;
        }
        Instant now = clock.instant();
        String actor = "os:" + operator;
        String step = UserImport.FILE;
        // the services' own audit lines name whoever acts (audit/AuditTrail): here, the operator
        SecurityContext before = SecurityContextHolder.getContext();
        SecurityContextHolder.setContext(new SecurityContextImpl(
                UsernamePasswordAuthenticationToken.authenticated(actor, null, List.of())));
        try {
            if (userPlan != null) {
                transaction.executeWithoutResult(status -> users.write(userPlan, now, actor));
            }
            step = ClientImport.FILE;
            if (clientPlan != null) {
                transaction.executeWithoutResult(status -> clients.write(clientPlan, now));
            }
            step = TokenImport.FILE;
            if (tokenPlan != null) {
                transaction.executeWithoutResult(status -> tokens.write(tokenPlan, now));
            }
        }
        catch (DataAccessException e) {
            // the files before this one are committed; this one is rolled back; running the same import
            // again is safe (what was written is now "unchanged")
            report.failed(step + ": " + e.getMostSpecificCause().getMessage());
            return report;
        }
        finally {
            SecurityContextHolder.setContext(before);
        }
        report.written();
        events.publishEvent(new AuditEvent(AuditEvent.Type.IMPORT_COMPLETED, report.auditSubject(), actor));
        return report;
    }
}
