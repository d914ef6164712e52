package com.example.identity.account;

import java.util.regex.Pattern;

/**
 * The password hashes the system this service replaces may hold, and how they are stored here: with the
 * {@code {id}} of the {@code DelegatingPasswordEncoder} that verifies them ({@link PasswordHashingConfig}).
 * None of them is today's encoding ({@code {argon2}} at 12 MiB/3), so {@code upgradeEncoding} is true for
 * each and the first successful login stores an Argon2id hash instead
 * ({@link AccountUserDetailsService#updatePassword}).
 * <ul>
 * <li>bcrypt as PHP's {@code password_hash} writes it: {@code $2y$}, {@code $2a$}, {@code $2b$} with a
 * two-digit cost 04 to 31 and 53 characters of salt and hash. Spring's {@code BCryptPasswordEncoder}
 * reads all three minor versions as they are; stored as {@code {bcrypt}$2y$...}.</li>
 * <li>Argon2i and Argon2id PHC strings ({@code $argon2i$v=19$m=65536,t=4,p=1$salt$hash}, PHP's
 * {@code PASSWORD_ARGON2I} / {@code PASSWORD_ARGON2ID}); stored as {@code {argon2-imported}$argon2i$...}.</li>
 * <li>Only with {@code identity.import.legacy-sha256=true}: {@code sha256$<salt>$<64 hex>}, the lowercase
 * hex SHA-256 of the UTF-8 bytes of salt followed by password; stored as
 * {@code {sha256-salted}sha256$...} ({@link LegacySaltedSha256PasswordEncoder}).</li>
 * </ul>
 */
public final class ImportedPasswordHashes {

    static final String BCRYPT_ID = "bcrypt";
    static final String ARGON2_ID = "argon2-imported";
    static final String SHA256_ID = "sha256-salted";

    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");
    private static final Pattern ARGON2 = Pattern.compile(
            "\\$argon2(i|id)\\$(v=(16|19)\\$)?m=[0-9]{1,7},t=[0-9]{1,3},p=[0-9]{1,2}\\$[A-Za-z0-9+/]{11,64}={0,2}\\$[A-Za-z0-9+/]{16,128}={0,2}");
    static final Pattern SHA256 = Pattern.compile("sha256\\$([^$\\s]{1,64})\\$([0-9a-f]{64})");

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
        if (BCRYPT.matcher(exported).matches()) {
            return new Stored("{" + BCRYPT_ID + "}" + exported);
        }
        if (ARGON2.matcher(exported).matches()) {
            return new Stored("{" + ARGON2_ID + "}" + exported);
        }
        if (SHA256.matcher(exported).matches()) {
            return legacySha256 ? new Stored("{" + SHA256_ID + "}" + exported)
                    : new Refused("hash sha256$ salado no admitido: activa identity.import.legacy-sha256=true si el "
                            + "sistema anterior lo usaba");
        }
        return new Refused("hash no reconocido (se admiten bcrypt $2y$/$2a$/$2b$, $argon2i$ y $argon2id$)");
    }
}
