package com.example.identity.migration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * An export of the old system as its operator would produce it: three JSON-lines files, with user ids
 * above every id in the database (so tests sharing one PostgreSQL database never collide) and e-mail
 * addresses unique to this export.
 */
final class OldSystemExport {

    static final String DEV_PASSWORD = "old-bcrypt-password";
    static final String PLAYER_PASSWORD = "old-argon2i-password";
    static final String CLIENT_SECRET = "old-client-secret-0123456789";

    final long devId;
    final long playerId;
    final long disabledId;
    final String tag = UUID.randomUUID().toString().substring(0, 8);
    final String devEmail = "dev-" + tag + "@old.example";
    final String playerEmail = "player-" + tag + "@old.example";
    final String disabledEmail = "gone-" + tag + "@old.example";
    final String gameToken = randomHex();
    final String revokedToken = randomHex();
    final String expiredToken = randomHex();
    final String clientId = "old-app-" + tag;
    final String redirectUri = "https://old-app.example/callback/" + tag;
    final Path dir;

    /** bcrypt as PHP's password_hash writes it ($2y$). */
    final String devHash = new BCryptPasswordEncoder(BCryptPasswordEncoder.BCryptVersion.$2Y, 10).encode(DEV_PASSWORD);
    final String playerHash = argon2i(PLAYER_PASSWORD);
    final String disabledHash = new BCryptPasswordEncoder(BCryptPasswordEncoder.BCryptVersion.$2B, 4).encode("whatever-1234");

    OldSystemExport(JdbcTemplate jdbc) {
        Long max = jdbc.queryForObject("select coalesce(max(id), 0) from users", Long.class);
        this.devId = max + 1000;
        this.playerId = max + 1001;
        this.disabledId = max + 1500;
        try {
            this.dir = Files.createTempDirectory("old-system");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String devLine() {
        return user(devId, "Diego Viejo", devEmail, "developer_api", true, devHash);
    }

    String playerLine() {
        return user(playerId, "Lucía", playerEmail.toUpperCase(java.util.Locale.ROOT), "user", true, playerHash);
    }

    String disabledLine(boolean enabled) {
        return user(disabledId, "Antiguo", disabledEmail, "admin", enabled, disabledHash);
    }

    static String user(long id, String name, String email, String rol, boolean enabled, String hash) {
        return "{\"id\":" + id + ",\"primer_nombre\":\"" + name + "\",\"correo\":\"" + email + "\",\"rol\":\"" + rol
                + "\",\"enabled\":" + enabled + ",\"password_hash\":\"" + hash + "\"}";
    }

    static String token(String token, long userId, String name, String created, String expires, boolean revoked) {
        return "{\"token\":\"" + token + "\",\"user_id\":" + userId + ",\"name\":\"" + name + "\",\"created_at\":\""
                + created + "\",\"expires_at\":" + (expires == null ? "null" : "\"" + expires + "\"") + ",\"revoked\":"
                + revoked + "}";
    }

    List<String> tokenLines(boolean gameTokenRevoked) {
        return List.of(
                token(gameToken, devId, "juego", "2023-01-02T03:04:05Z", null, gameTokenRevoked),
                token(revokedToken, devId, "viejo", "2022-06-01 10:00:00", null, true),
                token(expiredToken, playerId, "caducado", "2021-01-01T00:00:00+02:00", "2022-01-01T00:00:00Z", false)
                        .replace("}", ",\"scope\":\"perfil\"}"));
    }

    String clientLine(boolean revoked) {
        return client(clientId, CLIENT_SECRET, "Web antigua", devId, redirectUri, revoked);
    }

    static String client(String clientId, String secret, String name, long owner, String redirectUri, boolean revoked) {
        return "{\"client_id\":\"" + clientId + "\",\"client_secret\":\"" + secret + "\",\"name\":\"" + name
                + "\",\"user_id\":" + owner + ",\"redirect_uri\":\"" + redirectUri + "\",\"revoked\":" + revoked
                + ",\"created_at\":\"2020-02-03T04:05:06Z\"}";
    }

    Path users() {
        return write("users.jsonl", List.of(devLine(), playerLine(), disabledLine(false)));
    }

    Path tokens() {
        return write("tokens.jsonl", tokenLines(false));
    }

    Path clients() {
        return write("clients.jsonl", List.of(clientLine(false)));
    }

    ImportOptions all(boolean dryRun, boolean update) {
        return new ImportOptions(users(), tokens(), clients(), dryRun, update);
    }

    Path write(String name, List<String> lines) {
        try {
            return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String randomHex() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Argon2i as PHP's password_hash(PASSWORD_ARGON2I) writes it (here with a cheaper memory setting). */
    static String argon2i(String password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        var params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_i).withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(4096).withIterations(3).withParallelism(1).withSalt(salt).build();
        var generator = new Argon2BytesGenerator();
        generator.init(params);
        byte[] hash = new byte[32];
        generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), hash);
        var b64 = Base64.getEncoder().withoutPadding();
        return "$argon2i$v=19$m=4096,t=3,p=1$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
    }
}
