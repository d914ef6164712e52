package com.example.identity.migration;

import static com.example.identity.migration.ImportRows.batch;
import static com.example.identity.migration.ImportRows.decide;
import static com.example.identity.migration.ImportRows.utc;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

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
import com.example.identity.crypto.Secrets;

/**
 * The users file of an import ({@link LegacyImport}): every line checked with the rules of the service's
 * own accounts (e-mail shape and {@link UserAccount#normalizeEmail}, {@link Role},
 * {@link ImportedPasswordHashes}), against the other lines and the database; then the new and changed rows
 * written as batched JDBC statements, with their old ids and their password hashes as given (nothing is
 * hashed here), and each changed account followed as the service follows the same change.
 */
@Component
class UserImport {

    static final String FILE = "users";

    private static final Set<String> FIELDS = Set.of("id", "primer_nombre", "correo", "rol", "enabled", "password_hash",
            "correo_verificado");

    private final JdbcTemplate jdbc;
    private final ImportSettings settings;
    private final ApplicationEventPublisher events;
    private final EmailChanges emailChanges;

    UserImport(JdbcTemplate jdbc, ImportSettings settings, ApplicationEventPublisher events, EmailChanges emailChanges) {
        this.jdbc = jdbc;
        this.settings = settings;
        this.events = events;
        this.emailChanges = emailChanges;
    }

    /** {@code emailVerified}: the optional {@code correo_verificado} (decisions §18), false when absent. */
    record UserLine(long line, long id, String primerNombre, String correo, Role rol, boolean enabled, String passwordHash,
            String hashDigest, boolean emailVerified) {
    }

    private record ExistingUser(long id, String primerNombre, String correo, String rol, boolean enabled,
            @Nullable String importedHashDigest, boolean emailVerified) {
    }

    /** What to write for the users file, decided before anything is. */
    static final class Plan {
        final List<UserLine> newUsers = new ArrayList<>();
        final List<UserLine> changedUsers = new ArrayList<>();
        final Set<Long> changedPasswords = new HashSet<>();
        /** The rows of {@link #changedUsers} as they were, by id: what changed decides the effects. */
        final Map<Long, ExistingUser> usersBefore = new HashMap<>();
    }

    /**
     * Checks the file, line by line and against the database, and decides what to write; counts its lines
     * in the report, and adds every id of the file to {@code knownOwners} (the owners the applications and
     * tokens may name).
     */
    Plan plan(Path path, boolean update, ImportReport report, Set<Long> knownOwners) {
        var counts = report.counts(FILE);
        List<UserLine> lines = read(path, report, counts, knownOwners);
        return compare(lines, update, report, counts);
    }

    /** The lines without a problem of their own, each problem in the report. */
    private List<UserLine> read(Path path, ImportReport report, ImportReport.Counts counts, Set<Long> knownOwners) {
        Map<Long, Long> lineOfId = new HashMap<>();
        Map<String, Long> lineOfCorreo = new HashMap<>();
        List<UserLine> lines = new ArrayList<>();
        Set<Long> idsInFile = new HashSet<>();
        counts.lines = JsonLines.read(path, FILE, report, line -> {
            line.onlyFields(FIELDS);
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
                // the old system had no guests (decisions §24): an imported account has an address and a role given
                rol = Role.ASSIGNABLE.stream().filter(r -> r.value().equals(rolValue)).findFirst().orElse(null);
                if (rol == null) {
                    line.problem("rol", "rol desconocido '" + clip(rolValue) + "' (user, developer_api o admin)");
                }
            }
            Boolean enabled = line.bool("enabled");
            Boolean verified = line.bool("correo_verificado", false);
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
                lines.add(new UserLine(line.number, id, nombre, correo, rol, enabled, stored, Secrets.sha256Hex(stored),
                        Boolean.TRUE.equals(verified)));
            }
        });
        // owners named by tokens and applications may be any id of the file, even on a bad line: that
        // line is reported already, and a second report for each of its tokens would only bury it
        knownOwners.addAll(idsInFile);
        return lines;
    }

    /** Each line against the row of the same id or address in the database. */
    private Plan compare(List<UserLine> lines, boolean update, ImportReport report, ImportReport.Counts counts) {
        var plan = new Plan();
        Map<Long, ExistingUser> byId = new HashMap<>();
        Map<String, Long> idOfCorreo = new HashMap<>();
        jdbc.query("select id, primer_nombre, correo, rol, enabled, imported_hash_digest, email_verified from users",
                rs -> {
            var user = new ExistingUser(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getBoolean(5),
                    rs.getString(6), rs.getBoolean(7));
            byId.put(user.id(), user);
            idOfCorreo.put(user.correo(), user.id());
        });
        // the ids of deleted accounts are never given again (decisions §20, account/AccountDeletion)
        java.util.Set<Long> deleted = new java.util.HashSet<>(jdbc.queryForList("select id from deleted_users", Long.class));
        for (UserLine u : lines) {
            if (deleted.contains(u.id())) {
                report.problem(FILE, u.line(), "id", "el usuario " + u.id() + " fue eliminado y su id no se vuelve a usar");
                continue;
            }
            Long holder = idOfCorreo.get(u.correo());
            if (holder != null && holder != u.id()) {
                report.problem(FILE, u.line(), "correo", "correo ya usado por el usuario " + holder + " de la base de datos");
                continue;
            }
            ExistingUser existing = byId.get(u.id());
            if (existing == null) {
                plan.newUsers.add(u);
                counts.created++;
                continue;
            }
            if (existing.importedHashDigest() == null) {
                report.problem(FILE, u.line(), "id", "el usuario " + u.id()
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
            if (existing.emailVerified() != u.emailVerified()) {
                changed.add("correo_verificado");
            }
            // compared with the hash as imported, not the stored one: a login since may have rehashed it
            if (!existing.importedHashDigest().equals(u.hashDigest())) {
                changed.add("password_hash");
                plan.changedPasswords.add(u.id());
            }
            decide(changed, update, report, FILE, u.line(), "el usuario " + u.id(), counts, () -> {
                plan.changedUsers.add(u);
                plan.usersBefore.put(u.id(), existing);
            });
        }
        return plan;
    }

    /** Writes the plan, in the caller's transaction, then what the service does on each changed account. */
    void write(Plan plan, Instant now, String actor) {
        OffsetDateTime at = utc(now);
        batch(jdbc, "insert into users (id, primer_nombre, correo, password_hash, rol, enabled, password_change_required, "
                + "created_at, updated_at, imported_hash_digest, email_verified) values (?, ?, ?, ?, ?, ?, false, ?, ?, ?, ?)",
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
                    ps.setBoolean(10, u.emailVerified());
                });
        batch(jdbc, "update users set primer_nombre = ?, correo = ?, rol = ?, enabled = ?, updated_at = ?, "
                + "password_hash = coalesce(?, password_hash), imported_hash_digest = ?, email_verified = ? where id = ?",
                plan.changedUsers, (ps, u) -> {
                    ps.setString(1, u.primerNombre());
                    ps.setString(2, u.correo());
                    ps.setString(3, u.rol().value());
                    ps.setBoolean(4, u.enabled());
                    ps.setObject(5, at);
                    ps.setString(6, plan.changedPasswords.contains(u.id()) ? u.passwordHash() : null);
                    ps.setString(7, u.hashDigest());
                    ps.setBoolean(8, u.emailVerified());
                    ps.setLong(9, u.id());
                });
        for (UserLine u : plan.changedUsers) {
            followChange(plan.usersBefore.get(u.id()), u, plan.changedPasswords.contains(u.id()), actor);
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
    private void followChange(ExistingUser was, UserLine now, boolean newPassword, String actor) {
        String who = "usuario #" + now.id() + " " + now.correo();
        Role before = Role.fromValue(was.rol());
        if (!was.primerNombre().equals(now.primerNombre()) || was.emailVerified() != now.emailVerified()) {
            // cached tokens carry the name and email_verified
            events.publishEvent(new ProfileChanged(now.id()));
        }
        if (!was.primerNombre().equals(now.primerNombre())) {
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

    private static String clip(String value) {
        return value.length() > 30 ? value.substring(0, 30) + "…" : value;
    }
}
