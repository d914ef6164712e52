package com.example.identity.migration;

import static com.example.identity.migration.ImportRows.BATCH;
import static com.example.identity.migration.ImportRows.batch;
import static com.example.identity.migration.ImportRows.decide;
import static com.example.identity.migration.ImportRows.owner;
import static com.example.identity.migration.ImportRows.time;
import static com.example.identity.migration.ImportRows.utc;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.crypto.Secrets;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenScope;

/**
 * The API tokens file of an import ({@link LegacyImport}): every line checked with the rules of the
 * service's own tokens (64 hex characters, kept as their {@link Secrets#sha256Hex} digest and prefix,
 * {@link TokenScope}, an owner among the known users), against the other lines and the database (looked up
 * {@link ImportRows#BATCH} digests at a time); then the new and changed rows written as batched JDBC
 * statements, as personal tokens of their owners, and each changed token followed as
 * {@link ApiTokenService} follows the same change.
 */
@Component
class TokenImport {

    static final String FILE = "tokens";

    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{64}");
    private static final Set<String> FIELDS = Set.of("token", "user_id", "name", "created_at", "expires_at", "revoked",
            "scope");

    private final JdbcTemplate jdbc;
    private final ApiTokenService tokens;

    TokenImport(JdbcTemplate jdbc, ApiTokenService tokens) {
        this.jdbc = jdbc;
        this.tokens = tokens;
    }

    /** A token's value as stored: its digest, and its first 8 characters to recognise it by. */
    record StoredValue(String digest, String prefix) {
    }

    record TokenLine(long line, StoredValue value, long userId, String name, Instant createdAt,
            @Nullable Instant expiresAt, boolean revoked, TokenScope scope) {

        String digest() {
            return value.digest();
        }

        String prefix() {
            return value.prefix();
        }
    }

    private record ExistingToken(long id, long userId, String name, String kind, Instant createdAt,
            @Nullable Instant expiresAt, boolean revoked, @Nullable String scope) {
    }

    /** What to write for the tokens file, decided before anything is. */
    static final class Plan {
        final List<TokenLine> newTokens = new ArrayList<>();
        final List<TokenLine> changedTokens = new ArrayList<>();
        final Map<String, Long> tokenRowIds = new HashMap<>();
        /** Digests of {@link #changedTokens} that this import revokes. */
        final Set<String> revokedTokens = new HashSet<>();
    }

    /**
     * Checks the file, line by line and against the database, and decides what to write; counts its lines
     * in the report. An owner must be in {@code knownOwners} (the database's users and the users file's).
     */
    Plan plan(Path path, boolean update, ImportReport report, Set<Long> knownOwners) {
        var counts = report.counts(FILE);
        List<TokenLine> lines = read(path, report, counts, knownOwners);
        return compare(lines, update, report, counts);
    }

    /** The lines without a problem of their own, each problem in the report. */
    private List<TokenLine> read(Path path, ImportReport report, ImportReport.Counts counts, Set<Long> knownOwners) {
        Map<String, Long> lineOfDigest = new HashMap<>();
        List<TokenLine> lines = new ArrayList<>();
        counts.lines = JsonLines.read(path, FILE, report, line -> {
            line.onlyFields(FIELDS);
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
                lines.add(new TokenLine(line.number, new StoredValue(digest, token.substring(0, 8)), owner, name, createdAt,
                        expiresAt, revoked, scope));
            }
        });
        return lines;
    }

    /** Each line against the row of the same digest in the database. */
    private Plan compare(List<TokenLine> lines, boolean update, ImportReport report, ImportReport.Counts counts) {
        var plan = new Plan();
        Map<String, ExistingToken> existing = new HashMap<>();
        for (int from = 0; from < lines.size(); from += BATCH) {
            List<TokenLine> chunk = lines.subList(from, Math.min(lines.size(), from + BATCH));
            String marks = String.join(",", Collections.nCopies(chunk.size(), "?"));
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
                report.problem(FILE, t.line(), "user_id", "el token ya existe en la base de datos con otro propietario");
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
            decide(changed, update, report, FILE, t.line(), "el token " + t.prefix() + "…", counts, () -> {
                plan.changedTokens.add(t);
                if (revokes) {
                    plan.revokedTokens.add(t.digest());
                }
            });
        }
        return plan;
    }

    /** Writes the plan, in the caller's transaction, then what the service does on each changed token. */
    void write(Plan plan, Instant now) {
        OffsetDateTime at = utc(now);
        // personal tokens: the old system's tokens belonged to their users, not to an application
        batch(jdbc, "insert into api_tokens (user_id, name, token_digest, prefix, kind, created_at, expires_at, revoked_at, "
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
        batch(jdbc, "update api_tokens set name = ?, created_at = ?, expires_at = ?, personal_scope = ? where id = ?",
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
}
