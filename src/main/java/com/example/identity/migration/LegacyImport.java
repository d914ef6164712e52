package com.example.identity.migration;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ParameterizedPreparedStatementSetter;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.AccountService;
import com.example.identity.account.EmailChanges;
import com.example.identity.account.ImportSettings;
import com.example.identity.account.ImportedPasswordHashes;
import com.example.identity.account.ProfileChanged;
import com.example.identity.account.Role;
import com.example.identity.account.RoleChanged;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientService;
import com.example.identity.client.RedirectUriRule;
import com.example.identity.crypto.Secrets;
import com.example.identity.token.ApiTokenService;
import com.example.identity.token.TokenKind;
import com.example.identity.token.TokenScope;

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
 * Applications keep the old system's behaviour: they are first-party (decisions §12.6), which today
 * means nothing to store, as there is no consent screen yet; when consent arrives, imported applications
 * must be marked first-party.
 */
@Service
public class LegacyImport {

    static final String USERS = "users";
    static final String TOKENS = "tokens";
    static final String CLIENTS = "clients";

    private static final int BATCH = 1000;
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern CLIENT_ID = Pattern.compile("[\\x21-\\x7E]{1,100}");
    private static final Set<String> USER_FIELDS = Set.of("id", "primer_nombre", "correo", "rol", "enabled", "password_hash");
    private static final Set<String> TOKEN_FIELDS = Set.of("token", "user_id", "name", "created_at", "expires_at", "revoked",
            "scope");
    private static final Set<String> CLIENT_FIELDS = Set.of("client_id", "client_secret", "name", "user_id", "redirect_uri",
            "revoked", "created_at", "first_party");

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final ImportSettings settings;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final ClientService clients;
    private final ApiTokenService tokens;
    private final EmailChanges emailChanges;

    LegacyImport(JdbcTemplate jdbc, PlatformTransactionManager transactions, ImportSettings settings, Clock clock,
            ApplicationEventPublisher events, ClientService clients, ApiTokenService tokens, EmailChanges emailChanges) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.settings = settings;
        this.clock = clock;
        this.events = events;
        this.clients = clients;
        this.tokens = tokens;
        this.emailChanges = emailChanges;
    }

    record UserLine(long line, long id, String primerNombre, String correo, Role rol, boolean enabled, String passwordHash,
            String hashDigest) {
    }

    record TokenLine(long line, String digest, String prefix, long userId, String name, Instant createdAt,
            @Nullable Instant expiresAt, boolean revoked, TokenScope scope) {
    }

    record ClientLine(long line, String clientId, String secretDigest, String name, long ownerId, String redirectUri,
            boolean revoked, Instant createdAt, boolean firstParty) {
    }

    private record ExistingUser(long id, String primerNombre, String correo, String rol, boolean enabled,
            @Nullable String importedHashDigest) {
    }

    private record ExistingToken(long id, long userId, String name, String kind, Instant createdAt,
            @Nullable Instant expiresAt, boolean revoked, @Nullable String scope) {
    }

    private record ExistingClient(long id, String name, String redirectUri, String secretDigest, long ownerId,
            Instant createdAt, boolean revoked) {
    }

    /** What to write, decided before anything is. */
    private static final class Plan {
        final List<UserLine> newUsers = new ArrayList<>();
        final List<UserLine> changedUsers = new ArrayList<>();
        final Set<Long> changedPasswords = new HashSet<>();
        /** The rows of {@link #changedUsers} as they were, by id: what changed decides the effects. */
        final Map<Long, ExistingUser> usersBefore = new HashMap<>();
        final List<ClientLine> newClients = new ArrayList<>();
        final List<ClientLine> changedClients = new ArrayList<>();
        final Map<String, Long> clientRowIds = new HashMap<>();
        /** The rows of {@link #changedClients} as they were, by client id. */
        final Map<String, ExistingClient> clientsBefore = new HashMap<>();
        final List<TokenLine> newTokens = new ArrayList<>();
        final List<TokenLine> changedTokens = new ArrayList<>();
        final Map<String, Long> tokenRowIds = new HashMap<>();
        /** Digests of {@link #changedTokens} that this import revokes. */
        final Set<String> revokedTokens = new HashSet<>();
    }

    /**
     * Validates the given files and, when nothing is wrong and it is not a dry run, writes them.
     *
     * @param operator who runs it (the OS user), for the audit trail
     */
    public ImportReport run(ImportOptions options, String operator) {
        var report = new ImportReport(options.dryRun());
        var plan = new Plan();
        Set<Long> knownOwners = new HashSet<>(jdbc.queryForList("select id from users", Long.class));
        if (options.users() != null) {
            planUsers(options.users(), options.update(), report, plan, knownOwners);
        }
        if (options.clients() != null) {
            planClients(options.clients(), options.update(), report, plan, knownOwners);
        }
        if (options.tokens() != null) {
            planTokens(options.tokens(), options.update(), report, plan, knownOwners);
        }
        if (!report.problems().isEmpty() || options.dryRun()) {
            return report;
        }
        Instant now = clock.instant();
        String actor = "os:" + operator;
        String step = USERS;
        // the services' own audit lines name whoever acts (audit/AuditTrail): here, the operator
        SecurityContext before = SecurityContextHolder.getContext();
        SecurityContextHolder.setContext(new SecurityContextImpl(
                UsernamePasswordAuthenticationToken.authenticated(actor, null, List.of())));
        try {
            if (options.users() != null) {
                transaction.executeWithoutResult(status -> writeUsers(plan, now, actor));
            }
            step = CLIENTS;
            if (options.clients() != null) {
                transaction.executeWithoutResult(status -> writeClients(plan, now));
            }
            step = TOKENS;
            if (options.tokens() != null) {
                transaction.executeWithoutResult(status -> writeTokens(plan, now));
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

    // --- users ---------------------------------------------------------------------------------------

    private void planUsers(Path path, boolean update, ImportReport report, Plan plan, Set<Long> knownOwners) {
        var counts = report.counts(USERS);
        Map<Long, Long> lineOfId = new HashMap<>();
        Map<String, Long> lineOfCorreo = new HashMap<>();
        List<UserLine> lines = new ArrayList<>();
        Set<Long> idsInFile = new HashSet<>();
        counts.lines = JsonLines.read(path, USERS, report, line -> {
            line.onlyFields(USER_FIELDS);
            Long id = line.positiveLong("id");
            String nombre = line.text("primer_nombre", 100);
            String rawCorreo = line.string("correo", true);
            String correo = null;
            if (rawCorreo != null) {
                if (!AccountService.isValidEmail(rawCorreo.strip())) {
                    line.problem("correo", "correo inválido");
                } else {
                    correo = UserAccount.normalizeEmail(rawCorreo);
                }
            }
            String rolValue = line.string("rol", true);
            Role rol = null;
            if (rolValue != null) {
                try {
                    rol = Role.fromValue(rolValue);
                }
                catch (IllegalArgumentException unknown) {
                    line.problem("rol", "rol desconocido '" + clip(rolValue) + "' (user, developer_api o admin)");
                }
            }
            Boolean enabled = line.bool("enabled");
            String exported = line.string("password_hash", true);
            String stored = null;
            if (exported != null) {
                var result = ImportedPasswordHashes.toStored(exported, settings.legacySha256());
                if (result instanceof ImportedPasswordHashes.Stored s) {
                    stored = s.passwordHash();
                } else if (result instanceof ImportedPasswordHashes.Refused r) {
                    line.problem("password_hash", r.reason());
                }
            }
            if (id != null) {
                idsInFile.add(id);
                Long first = lineOfId.putIfAbsent(id, line.number);
                if (first != null) {
                    line.problem("id", "id " + id + " repetido (ya en la línea " + first + ")");
                }
            }
            if (correo != null) {
                Long first = lineOfCorreo.putIfAbsent(correo, line.number);
                if (first != null) {
                    line.problem("correo", "correo repetido (ya en la línea " + first + ")");
                }
            }
            if (!line.bad()) {
                lines.add(new UserLine(line.number, id, nombre, correo, rol, enabled, stored, Secrets.sha256Hex(stored)));
            }
        });
        // owners named by tokens and applications may be any id of the file, even on a bad line: that
        // line is reported already, and a second report for each of its tokens would only bury it
        knownOwners.addAll(idsInFile);

        Map<Long, ExistingUser> byId = new HashMap<>();
        Map<String, Long> idOfCorreo = new HashMap<>();
        jdbc.query("select id, primer_nombre, correo, rol, enabled, imported_hash_digest from users", rs -> {
            var user = new ExistingUser(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getBoolean(5),
                    rs.getString(6));
            byId.put(user.id(), user);
            idOfCorreo.put(user.correo(), user.id());
        });
        for (UserLine u : lines) {
            Long holder = idOfCorreo.get(u.correo());
            if (holder != null && holder != u.id()) {
                report.problem(USERS, u.line(), "correo", "correo ya usado por el usuario " + holder + " de la base de datos");
                continue;
            }
            ExistingUser existing = byId.get(u.id());
            if (existing == null) {
                plan.newUsers.add(u);
                counts.created++;
                continue;
            }
            if (existing.importedHashDigest() == null) {
                report.problem(USERS, u.line(), "id", "el usuario " + u.id()
                        + " ya existe en la base de datos y no viene de una importación");
                continue;
            }
            List<String> changed = new ArrayList<>();
            if (!existing.primerNombre().equals(u.primerNombre())) {
                changed.add("primer_nombre");
            }
            if (!existing.correo().equals(u.correo())) {
                changed.add("correo");
            }
            if (!existing.rol().equals(u.rol().value())) {
                changed.add("rol");
            }
            if (existing.enabled() != u.enabled()) {
                changed.add("enabled");
            }
            // compared with the hash as imported, not the stored one: a login since may have rehashed it
            if (!existing.importedHashDigest().equals(u.hashDigest())) {
                changed.add("password_hash");
                plan.changedPasswords.add(u.id());
            }
            decide(changed, update, report, USERS, u.line(), "el usuario " + u.id(), counts, () -> {
                plan.changedUsers.add(u);
                plan.usersBefore.put(u.id(), existing);
            });
        }
    }

    private void writeUsers(Plan plan, Instant now, String actor) {
        OffsetDateTime at = utc(now);
        batch("insert into users (id, primer_nombre, correo, password_hash, rol, enabled, password_change_required, "
                + "created_at, updated_at, imported_hash_digest) values (?, ?, ?, ?, ?, ?, false, ?, ?, ?)",
                plan.newUsers, (ps, u) -> {
                    ps.setLong(1, u.id());
                    ps.setString(2, u.primerNombre());
                    ps.setString(3, u.correo());
                    ps.setString(4, u.passwordHash());
                    ps.setString(5, u.rol().value());
                    ps.setBoolean(6, u.enabled());
                    ps.setObject(7, at);
                    ps.setObject(8, at);
                    ps.setString(9, u.hashDigest());
                });
        batch("update users set primer_nombre = ?, correo = ?, rol = ?, enabled = ?, updated_at = ?, "
                + "password_hash = coalesce(?, password_hash), imported_hash_digest = ? where id = ?",
                plan.changedUsers, (ps, u) -> {
                    ps.setString(1, u.primerNombre());
                    ps.setString(2, u.correo());
                    ps.setString(3, u.rol().value());
                    ps.setBoolean(4, u.enabled());
                    ps.setObject(5, at);
                    ps.setString(6, plan.changedPasswords.contains(u.id()) ? u.passwordHash() : null);
                    ps.setString(7, u.hashDigest());
                    ps.setLong(8, u.id());
                });
        for (UserLine u : plan.changedUsers) {
            followUserChange(plan.usersBefore.get(u.id()), u, plan.changedPasswords.contains(u.id()), actor);
        }
        if (!plan.newUsers.isEmpty()) {
            // the next account made by the service gets the id after the highest one, imported or not.
            // One statement for H2 and PostgreSQL (both have identity columns); DDL takes no parameters.
            Long max = jdbc.queryForObject("select max(id) from users", Long.class);
            jdbc.execute("alter table users alter column id restart with " + (max + 1));
        }
    }

    /**
     * What the service does on the same change of one account, in this transaction: the account page on a
     * new name ({@link ProfileChanged}: cached tokens carry it), a confirmed address change
     * ({@link EmailChanges#followChange}), the admin page on a role, a disabled or enabled account and a new
     * password ({@link RoleChanged}: a drop to user revokes personal tokens; {@link AccountChanged}: sessions
     * end, tokens are looked up again on every instance), with their audit lines.
     */
    private void followUserChange(ExistingUser was, UserLine now, boolean newPassword, String actor) {
        String who = "usuario #" + now.id() + " " + now.correo();
        Role before = Role.fromValue(was.rol());
        if (!was.primerNombre().equals(now.primerNombre())) {
            events.publishEvent(new ProfileChanged(now.id()));
            audit(AuditEvent.Type.NAME_CHANGED, who + ": «" + was.primerNombre() + "» → «" + now.primerNombre() + "»", actor);
        }
        if (before != now.rol()) {
            events.publishEvent(new RoleChanged(now.id(), before, now.rol()));
            audit(AuditEvent.Type.ROLE_CHANGED, who + ": " + before.value() + " → " + now.rol().value(), actor);
        }
        if (was.enabled() != now.enabled()) {
            audit(now.enabled() ? AuditEvent.Type.USER_ENABLED : AuditEvent.Type.USER_DISABLED, who, actor);
        }
        if (newPassword) {
            audit(AuditEvent.Type.PASSWORD_CHANGED, who + " (hash importado)", actor);
        }
        if (!was.correo().equals(now.correo())) {
            // AccountChanged included, and the sessions of the old address, which it cannot find any more
            emailChanges.followChange(now.id(), was.correo(), now.correo(), actor);
        } else if (was.enabled() != now.enabled() || before != now.rol() || newPassword) {
            events.publishEvent(new AccountChanged(now.id()));
        }
    }

    private void audit(AuditEvent.Type type, String subject, String actor) {
        events.publishEvent(new AuditEvent(type, subject, actor));
    }

    // --- applications ----------------------------------------------------------------------------------

    private void planClients(Path path, boolean update, ImportReport report, Plan plan, Set<Long> knownOwners) {
        var counts = report.counts(CLIENTS);
        Map<String, Long> lineOfClientId = new HashMap<>();
        List<ClientLine> lines = new ArrayList<>();
        counts.lines = JsonLines.read(path, CLIENTS, report, line -> {
            line.onlyFields(CLIENT_FIELDS);
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
                lines.add(new ClientLine(line.number, clientId, Secrets.sha256Hex(secret), name, owner, redirectUri,
                        revoked, createdAt, firstParty));
            }
        });
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
                report.problem(CLIENTS, c.line(), "user_id", "la aplicación ya existe en la base de datos con el propietario "
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
            decide(changed, update, report, CLIENTS, c.line(), "la aplicación " + c.clientId(), counts, () -> {
                plan.changedClients.add(c);
                plan.clientsBefore.put(c.clientId(), row);
            });
        }
    }

    private void writeClients(Plan plan, Instant now) {
        OffsetDateTime at = utc(now);
        batch("insert into oauth_clients (client_id, name, redirect_uri, secret_digest, owner_id, created_at, revoked_at, "
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
        batch("update oauth_clients set name = ?, redirect_uri = ?, created_at = ?, "
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

    // --- tokens ----------------------------------------------------------------------------------------

    private void planTokens(Path path, boolean update, ImportReport report, Plan plan, Set<Long> knownOwners) {
        var counts = report.counts(TOKENS);
        Map<String, Long> lineOfDigest = new HashMap<>();
        List<TokenLine> lines = new ArrayList<>();
        counts.lines = JsonLines.read(path, TOKENS, report, line -> {
            line.onlyFields(TOKEN_FIELDS);
            String token = line.string("token", true);
            if (token != null && !TOKEN.matcher(token).matches()) {
                line.problem("token", "debe tener 64 caracteres hexadecimales en minúscula");
                token = null;
            }
            Long owner = owner(line, "user_id", knownOwners);
            String name = line.text("name", 100);
            Instant createdAt = line.time("created_at", true);
            Instant expiresAt = line.time("expires_at", false);
            Boolean revoked = line.bool("revoked");
            // the old system's tokens could do everything: gestion (decisions §15), unless the line says
            TokenScope scope = TokenScope.GESTION;
            String scopeValue = line.string("scope", false);
            if (scopeValue != null) {
                scope = TokenScope.fromValue(scopeValue).orElse(null);
                if (scope == null) {
                    line.problem("scope", "scope inválido (perfil o gestion)");
                }
            }
            String digest = token == null ? null : Secrets.sha256Hex(token);
            if (digest != null) {
                Long first = lineOfDigest.putIfAbsent(digest, line.number);
                if (first != null) {
                    line.problem("token", "token repetido (ya en la línea " + first + ")");
                }
            }
            if (!line.bad()) {
                lines.add(new TokenLine(line.number, digest, token.substring(0, 8), owner, name, createdAt, expiresAt,
                        revoked, scope));
            }
        });
        Map<String, ExistingToken> existing = new HashMap<>();
        for (int from = 0; from < lines.size(); from += BATCH) {
            List<TokenLine> chunk = lines.subList(from, Math.min(lines.size(), from + BATCH));
            String marks = String.join(",", java.util.Collections.nCopies(chunk.size(), "?"));
            jdbc.query("select token_digest, id, user_id, name, kind, created_at, expires_at, revoked_at, personal_scope "
                    + "from api_tokens "
                    + "where token_digest in (" + marks + ")", rs -> {
                        OffsetDateTime expires = rs.getObject(7, OffsetDateTime.class);
                        existing.put(rs.getString(1), new ExistingToken(rs.getLong(2), rs.getLong(3), rs.getString(4),
                                rs.getString(5), rs.getObject(6, OffsetDateTime.class).toInstant(),
                                expires == null ? null : expires.toInstant(), rs.getObject(8) != null, rs.getString(9)));
                    }, chunk.stream().map(TokenLine::digest).toArray());
        }
        for (TokenLine t : lines) {
            ExistingToken row = existing.get(t.digest());
            if (row == null) {
                plan.newTokens.add(t);
                counts.created++;
                continue;
            }
            if (!row.kind().equals(TokenKind.PERSONAL.value()) || row.userId() != t.userId()) {
                report.problem(TOKENS, t.line(), "user_id", "el token ya existe en la base de datos con otro propietario");
                continue;
            }
            List<String> changed = new ArrayList<>();
            if (!row.name().equals(t.name())) {
                changed.add("name");
            }
            if (!row.createdAt().equals(t.createdAt())) {
                changed.add("created_at");
            }
            if (!Objects.equals(row.expiresAt(), t.expiresAt())) {
                changed.add("expires_at");
            }
            if (!t.scope().value().equals(row.scope())) {
                changed.add("scope");
            }
            if (t.revoked() && !row.revoked()) {
                changed.add("revoked");
            }
            plan.tokenRowIds.put(t.digest(), row.id());
            boolean revokes = changed.contains("revoked");
            decide(changed, update, report, TOKENS, t.line(), "el token " + t.prefix() + "…", counts, () -> {
                plan.changedTokens.add(t);
                if (revokes) {
                    plan.revokedTokens.add(t.digest());
                }
            });
        }
    }

    private void writeTokens(Plan plan, Instant now) {
        OffsetDateTime at = utc(now);
        // personal tokens: the old system's tokens belonged to their users, not to an application
        batch("insert into api_tokens (user_id, name, token_digest, prefix, kind, created_at, expires_at, revoked_at, "
                + "personal_scope) values (?, ?, ?, ?, '" + TokenKind.PERSONAL.value() + "', ?, ?, ?, ?)", plan.newTokens, (ps, t) -> {
                    ps.setLong(1, t.userId());
                    ps.setString(2, t.name());
                    ps.setString(3, t.digest());
                    ps.setString(4, t.prefix());
                    ps.setObject(5, utc(t.createdAt()));
                    time(ps, 6, t.expiresAt() == null ? null : utc(t.expiresAt()));
                    time(ps, 7, t.revoked() ? at : null);
                    ps.setString(8, t.scope().value());
                });
        if (!plan.newTokens.isEmpty()) {
            // their values were in use before: a game that tried one here already has it remembered as unknown
            tokens.knownValuesStored();
        }
        batch("update api_tokens set name = ?, created_at = ?, expires_at = ?, personal_scope = ? where id = ?",
                plan.changedTokens, (ps, t) -> {
                    ps.setString(1, t.name());
                    ps.setObject(2, utc(t.createdAt()));
                    time(ps, 3, t.expiresAt() == null ? null : utc(t.expiresAt()));
                    ps.setString(4, t.scope().value());
                    ps.setLong(5, plan.tokenRowIds.get(t.digest()));
                });
        // then, after the rows above (a revocation loads the row as it now is): a revocation as the
        // dashboard's (evicted on every instance at commit, audited), any other change (a scope, an expiry)
        // looked up again by every instance
        for (TokenLine t : plan.changedTokens) {
            long id = plan.tokenRowIds.get(t.digest());
            if (plan.revokedTokens.contains(t.digest())) {
                tokens.revoke(id);
            } else {
                tokens.changedOutside(id);
            }
        }
    }

    // --- shared ----------------------------------------------------------------------------------------

    @Nullable
    private static Long owner(JsonLines.Line line, String field, Set<Long> knownOwners) {
        Long owner = line.positiveLong(field);
        if (owner != null && !knownOwners.contains(owner)) {
            line.problem(field, "el usuario " + owner + " no existe (ni en el fichero de usuarios ni en la base de datos)");
            return null;
        }
        return owner;
    }

    private static void decide(List<String> changed, boolean update, ImportReport report, String file, long line,
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

    private <T> void batch(String sql, Collection<T> rows, ParameterizedPreparedStatementSetter<T> setter) {
        if (!rows.isEmpty()) {
            jdbc.batchUpdate(sql, rows, BATCH, setter);
        }
    }

    private static void time(PreparedStatement ps, int index, @Nullable OffsetDateTime value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setObject(index, value);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static String clip(String value) {
        return value.length() > 30 ? value.substring(0, 30) + "…" : value;
    }

}
