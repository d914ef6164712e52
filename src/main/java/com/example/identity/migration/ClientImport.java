package com.example.identity.migration;

import static com.example.identity.migration.ImportRows.batch;
import static com.example.identity.migration.ImportRows.decide;
import static com.example.identity.migration.ImportRows.owner;
import static com.example.identity.migration.ImportRows.time;
import static com.example.identity.migration.ImportRows.utc;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientService;
import com.example.identity.client.RedirectUriRule;
import com.example.identity.crypto.Secrets;

/**
 * The applications file of an import ({@link LegacyImport}): every line checked with the rules of the
 * service's own applications (a visible-ASCII client id, the secret kept as its {@link Secrets#sha256Hex}
 * digest, {@link RedirectUriRule}, an owner among the known users), against the other lines and the
 * database; then the new and changed rows written as batched JDBC statements, and each changed application
 * followed as {@link ClientService} follows the same change.
 * <p>
 * Applications keep the old system's behaviour: they are first-party (decisions §12.6), which today
 * means nothing to store, as there is no consent screen yet; when consent arrives, imported applications
 * must be marked first-party.
 */
@Component
class ClientImport {

    static final String FILE = "clients";

    private static final Pattern CLIENT_ID = Pattern.compile("[\\x21-\\x7E]{1,100}");
    private static final Set<String> FIELDS = Set.of("client_id", "client_secret", "name", "user_id", "redirect_uri",
            "revoked", "created_at", "first_party");

    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher events;
    private final ClientService clients;

    ClientImport(JdbcTemplate jdbc, ApplicationEventPublisher events, ClientService clients) {
        this.jdbc = jdbc;
        this.events = events;
        this.clients = clients;
    }

    /** How an application is known: its client id, and its secret as stored (a digest). */
    record Credentials(String clientId, String secretDigest) {
    }

    record ClientLine(long line, Credentials credentials, String name, long ownerId, String redirectUri, boolean revoked,
            Instant createdAt, boolean firstParty) {

        String clientId() {
            return credentials.clientId();
        }

        String secretDigest() {
            return credentials.secretDigest();
        }
    }

    private record ExistingClient(long id, String name, String redirectUri, String secretDigest, long ownerId,
            Instant createdAt, boolean revoked) {
    }

    /** What to write for the applications file, decided before anything is. */
    static final class Plan {
        final List<ClientLine> newClients = new ArrayList<>();
        final List<ClientLine> changedClients = new ArrayList<>();
        final Map<String, Long> clientRowIds = new HashMap<>();
        /** The rows of {@link #changedClients} as they were, by client id. */
        final Map<String, ExistingClient> clientsBefore = new HashMap<>();
    }

    /**
     * Checks the file, line by line and against the database, and decides what to write; counts its lines
     * in the report. An owner must be in {@code knownOwners} (the database's users and the users file's).
     */
    Plan plan(Path path, boolean update, ImportReport report, Set<Long> knownOwners) {
        var counts = report.counts(FILE);
        List<ClientLine> lines = read(path, report, counts, knownOwners);
        return compare(lines, update, report, counts);
    }

    /** The lines without a problem of their own, each problem in the report. */
    private List<ClientLine> read(Path path, ImportReport report, ImportReport.Counts counts, Set<Long> knownOwners) {
        Map<String, Long> lineOfClientId = new HashMap<>();
        List<ClientLine> lines = new ArrayList<>();
        counts.lines = JsonLines.read(path, FILE, report, line -> {
            line.onlyFields(FIELDS);
            String clientId = line.string("client_id", true);
            if (clientId != null && !CLIENT_ID.matcher(clientId).matches()) {
                line.problem("client_id", "de 1 a 100 caracteres ASCII visibles, sin espacios");
                clientId = null;
            }
            String secret = line.string("client_secret", true);
            if (secret != null && (secret.isEmpty() || secret.length() > 512)) {
                line.problem("client_secret", "de 1 a 512 caracteres");
                secret = null;
            }
            String name = line.text("name", 100);
            Long owner = owner(line, "user_id", knownOwners);
            String redirectUri = line.string("redirect_uri", true);
            if (redirectUri != null) {
                var refused = RedirectUriRule.problemWith(redirectUri);
                if (refused.isPresent()) {
                    line.problem("redirect_uri", refused.get());
                }
            }
            Boolean revoked = line.bool("revoked");
            Instant createdAt = line.time("created_at", true);
            // the system this one replaces had no consent page: its applications stay first-party unless the
            // export says otherwise (decisions §12.6)
            Boolean firstParty = line.bool("first_party", true);
            if (clientId != null) {
                Long first = lineOfClientId.putIfAbsent(clientId, line.number);
                if (first != null) {
                    line.problem("client_id", "client_id repetido (ya en la línea " + first + ")");
                }
            }
            if (!line.bad()) {
                lines.add(new ClientLine(line.number, new Credentials(clientId, Secrets.sha256Hex(secret)), name, owner,
                        redirectUri, revoked, createdAt, firstParty));
            }
        });
        return lines;
    }

    /** Each line against the row of the same client id in the database. */
    private Plan compare(List<ClientLine> lines, boolean update, ImportReport report, ImportReport.Counts counts) {
        var plan = new Plan();
        Map<String, ExistingClient> existing = new HashMap<>();
        jdbc.query("select id, client_id, name, redirect_uri, secret_digest, owner_id, created_at, revoked_at from oauth_clients",
                rs -> {
                    existing.put(rs.getString(2), new ExistingClient(rs.getLong(1), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getLong(6), rs.getObject(7, OffsetDateTime.class).toInstant(),
                            rs.getObject(8) != null));
                });
        for (ClientLine c : lines) {
            ExistingClient row = existing.get(c.clientId());
            if (row == null) {
                plan.newClients.add(c);
                counts.created++;
                continue;
            }
            if (row.ownerId() != c.ownerId()) {
                report.problem(FILE, c.line(), "user_id", "la aplicación ya existe en la base de datos con el propietario "
                        + row.ownerId() + "; una importación no cambia propietarios");
                continue;
            }
            List<String> changed = new ArrayList<>();
            if (!row.name().equals(c.name())) {
                changed.add("name");
            }
            if (!row.redirectUri().equals(c.redirectUri())) {
                changed.add("redirect_uri");
            }
            if (!row.secretDigest().equals(c.secretDigest())) {
                changed.add("client_secret");
            }
            if (!row.createdAt().equals(c.createdAt())) {
                changed.add("created_at");
            }
            if (c.revoked() && !row.revoked()) {
                changed.add("revoked");
            }
            plan.clientRowIds.put(c.clientId(), row.id());
            decide(changed, update, report, FILE, c.line(), "la aplicación " + c.clientId(), counts, () -> {
                plan.changedClients.add(c);
                plan.clientsBefore.put(c.clientId(), row);
            });
        }
        return plan;
    }

    /** Writes the plan, in the caller's transaction, then what the service does on each changed application. */
    void write(Plan plan, Instant now) {
        OffsetDateTime at = utc(now);
        batch(jdbc, "insert into oauth_clients (client_id, name, redirect_uri, secret_digest, owner_id, created_at, revoked_at, "
                + "first_party) values (?, ?, ?, ?, ?, ?, ?, ?)", plan.newClients, (ps, c) -> {
                    ps.setString(1, c.clientId());
                    ps.setString(2, c.name());
                    ps.setString(3, c.redirectUri());
                    ps.setString(4, c.secretDigest());
                    ps.setLong(5, c.ownerId());
                    ps.setObject(6, utc(c.createdAt()));
                    time(ps, 7, c.revoked() ? at : null);
                    ps.setBoolean(8, c.firstParty());
                });
        batch(jdbc, "update oauth_clients set name = ?, redirect_uri = ?, created_at = ?, "
                + "secret_rotated_at = case when secret_digest = ? then secret_rotated_at else ? end, secret_digest = ? "
                + "where id = ?", plan.changedClients, (ps, c) -> {
                    ps.setString(1, c.name());
                    ps.setString(2, c.redirectUri());
                    ps.setObject(3, utc(c.createdAt()));
                    ps.setString(4, c.secretDigest());
                    ps.setObject(5, at);
                    ps.setString(6, c.secretDigest());
                    ps.setLong(7, plan.clientRowIds.get(c.clientId()));
                });
        // then what the service does on the same changes, after the rows above (a revocation loads the row
        // as it now is): a revocation as ClientService.revoke does it (its access and refresh tokens end
        // with it, on every instance), any other change read again by every instance; audited like theirs
        for (ClientLine c : plan.changedClients) {
            ExistingClient was = plan.clientsBefore.get(c.clientId());
            if (!was.secretDigest().equals(c.secretDigest())) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.CLIENT_SECRET_ROTATED, c.clientId()));
            }
            if (c.revoked() && !was.revoked()) {
                clients.revoke(c.clientId());
            } else {
                clients.changedOutside(c.clientId());
            }
        }
    }
}
