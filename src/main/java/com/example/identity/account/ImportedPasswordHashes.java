package com.example.identity.account;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The password hashes the system this service replaces may hold, and how they are stored here: with the
 * {@code {id}} of the {@code DelegatingPasswordEncoder} that verifies them ({@link PasswordHashingConfig}).
 * None of them is today's encoding ({@code {argon2}} at 12 MiB/3), so {@code upgradeEncoding} is true for
 * each and the first successful login stores an Argon2id hash instead
 * ({@link AccountUserDetailsService#updatePassword}).
 * <ul>
 * <li>bcrypt as PHP's {@code password_hash} writes it: {@code $2y$}, {@code $2a$}, {@code $2b$} with a
 * two-digit cost 04 to {@value #BCRYPT_MAX_COST} and 53 characters of salt and hash. Spring's
 * {@code BCryptPasswordEncoder} reads all three minor versions as they are; stored as
 * {@code {bcrypt}$2y$...}.</li>
 * <li>Argon2i and Argon2id PHC strings ({@code $argon2i$v=19$m=65536,t=4,p=1$salt$hash}, PHP's
 * {@code PASSWORD_ARGON2I} / {@code PASSWORD_ARGON2ID}) within {@link #aboveCostCaps the caps}; stored as
 * {@code {argon2-imported}$argon2i$...}.</li>
 * <li>Only with {@code identity.import.legacy-sha256=true}: {@code sha256$<salt>$<64 hex>}, the lowercase
 * hex SHA-256 of the UTF-8 bytes of salt followed by password; stored as
 * {@code {sha256-salted}sha256$...} ({@link LegacySaltedSha256PasswordEncoder}).</li>
 * </ul>
 * <p>
 * <b>Cost caps.</b> A hash carries its own cost, and verifying it costs the login that much: a bcrypt
 * {@code $2y$31$} takes about a day of one core, an Argon2 {@code m=4194304} asks for 4 GiB. With one hashing
 * thread per core ({@link BoundedPasswordEncoder}), two such logins would stop every login. So a hash above
 * the caps is refused at import (a problem of its line, like an unrecognised hash) and, should one be
 * stored anyway, never verified at login ({@link #aboveCostCaps}, checked by {@link CostCappedPasswordEncoder}):
 * it does not match, and the account gets in by password recovery. The caps are generous, for every
 * setting a PHP system would realistically have used, and bounded, measured against today's Argon2id at
 * 12 MiB/3 (25 ms native, 37 ms in Java on one core of the benchmark machine):
 * <ul>
 * <li>bcrypt cost at most {@value #BCRYPT_MAX_COST}: PHP's default is 10 (12 from PHP 8.4), and each step
 * doubles the work; 14 is 16 times cost 10 (1.3 s of one core, measured here under load), once per
 * account (the first login rehashes to Argon2id).</li>
 * <li>Argon2 memory at most {@value #ARGON2_MAX_MEMORY_KIB} KiB (64 MiB, PHP's default for
 * {@code PASSWORD_ARGON2I/ID} and libsodium's interactive limit), iterations at most
 * {@value #ARGON2_MAX_ITERATIONS} (PHP's default 4, libsodium's 2 to 4), parallelism at most
 * {@value #ARGON2_MAX_PARALLELISM} (PHP's default 1). The work is memory times passes: at the caps
 * 64 MiB × 10 = 640 MiB-passes, 18 times today's 12 MiB × 3 = 36 (18 × 25 and 37 ms: about 0.5 s
 * native, 0.7 s in Java); one hash at once per hashing thread, at most 64 MiB each, outside the Java heap
 * ({@link NativeArgon2idPasswordEncoder} verifies Argon2i too).</li>
 * </ul>
 */
public final class ImportedPasswordHashes {

    /** The highest bcrypt cost (log2 of the rounds) imported or verified. */
    public static final int BCRYPT_MAX_COST = 14;
    /** The most memory of an Argon2 hash imported or verified, in KiB (64 MiB). */
    public static final int ARGON2_MAX_MEMORY_KIB = 65536;
    /** The most Argon2 iterations (passes over the memory) imported or verified. */
    public static final int ARGON2_MAX_ITERATIONS = 10;
    /** The most Argon2 lanes imported or verified. */
    public static final int ARGON2_MAX_PARALLELISM = 8;

    static final String BCRYPT_ID = "bcrypt";
    static final String ARGON2_ID = "argon2-imported";
    static final String SHA256_ID = "sha256-salted";

    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");
    private static final Pattern ARGON2 = Pattern.compile(
            "\\$argon2(i|id)\\$(v=(16|19)\\$)?m=[0-9]{1,7},t=[0-9]{1,3},p=[0-9]{1,2}\\$[A-Za-z0-9+/]{11,64}={0,2}\\$[A-Za-z0-9+/]{16,128}={0,2}");
    static final Pattern SHA256 = Pattern.compile("sha256\\$([^$\\s]{1,64})\\$([0-9a-f]{64})");
    /** The cost of any bcrypt string ({@code $2?$NN$...}), whatever else it holds. */
    private static final Pattern BCRYPT_COST = Pattern.compile("\\$2[a-z]?\\$([0-9]{1,10})\\$.*", Pattern.DOTALL);
    /** The parameters of any Argon2 PHC string, whatever else it holds; any order of m, t and p. */
    private static final Pattern ARGON2_PARAMETERS = Pattern.compile(
            "\\$argon2[a-z]*\\$(?:v=[0-9]+\\$)?([^$]*)\\$.*", Pattern.DOTALL);

    private ImportedPasswordHashes() {
    }

    /** A hash as the old system exported it, or why it cannot be imported. */
    public sealed interface Result permits Stored, Refused {
    }

    /** The value for {@code users.password_hash}. */
    public record Stored(String passwordHash) implements Result {
    }

    /** The reason, in Spanish, for the import report. */
    public record Refused(String reason) implements Result {
    }

    /**
     * @param legacySha256 whether {@code identity.import.legacy-sha256} is on
     */
    public static Result toStored(String exported, boolean legacySha256) {
        if (exported == null || exported.isEmpty()) {
            return new Refused("falta el hash de la contraseña");
        }
        if (BCRYPT.matcher(exported).matches() || ARGON2.matcher(exported).matches()) {
            Optional<String> tooCostly = aboveCostCaps(exported);
            if (tooCostly.isPresent()) {
                return new Refused(tooCostly.get() + "; restablece esa contraseña tras el cambio");
            }
            return new Stored("{" + (exported.startsWith("$2") ? BCRYPT_ID : ARGON2_ID) + "}" + exported);
        }
        if (SHA256.matcher(exported).matches()) {
            return legacySha256 ? new Stored("{" + SHA256_ID + "}" + exported)
                    : new Refused("hash sha256$ salado no admitido: activa identity.import.legacy-sha256=true si el "
                            + "sistema anterior lo usaba");
        }
        return new Refused("hash no reconocido (se admiten bcrypt $2y$/$2a$/$2b$, $argon2i$ y $argon2id$)");
    }

    /**
     * Why verifying {@code hash} (a bcrypt or Argon2 string, without its {@code {id}}) would cost more than
     * the caps allow, in Spanish; empty when it is within them. A bcrypt or Argon2 string whose cost cannot
     * be read is above them too: it is not verified. Anything else (salted SHA-256) costs nothing and is
     * within them.
     */
    public static Optional<String> aboveCostCaps(String hash) {
        if (hash.startsWith("$2")) {
            Matcher cost = BCRYPT_COST.matcher(hash);
            if (!cost.matches()) {
                return Optional.of("bcrypt sin coste legible");
            }
            long rounds = Long.parseLong(cost.group(1));
            return rounds <= BCRYPT_MAX_COST ? Optional.empty()
                    : Optional.of("coste bcrypt " + rounds + " por encima del máximo admitido (" + BCRYPT_MAX_COST + ")");
        }
        if (hash.startsWith("$argon2")) {
            Matcher parameters = ARGON2_PARAMETERS.matcher(hash);
            boolean readable = parameters.matches();
            long memory = -1;
            long iterations = -1;
            long parallelism = -1;
            for (String parameter : readable ? parameters.group(1).split(",", -1) : new String[0]) {
                if (!parameter.matches("[mtp]=[0-9]{1,10}")) {
                    readable = false; // an unknown or unreadable parameter: not verified
                    break;
                }
                long value = Long.parseLong(parameter.substring(2));
                switch (parameter.charAt(0)) {
                    case 'm' -> memory = value;
                    case 't' -> iterations = value;
                    default -> parallelism = value;
                }
            }
            if (!readable || memory < 0 || iterations < 0 || parallelism < 0) {
                return Optional.of("argon2 sin parámetros m, t y p legibles");
            }
            if (memory > ARGON2_MAX_MEMORY_KIB || iterations > ARGON2_MAX_ITERATIONS || parallelism > ARGON2_MAX_PARALLELISM) {
                return Optional.of("coste argon2 m=" + memory + ",t=" + iterations + ",p=" + parallelism
                        + " por encima del máximo admitido (m=" + ARGON2_MAX_MEMORY_KIB + ",t=" + ARGON2_MAX_ITERATIONS
                        + ",p=" + ARGON2_MAX_PARALLELISM + ")");
            }
        }
        return Optional.empty();
    }
}
