package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.example.identity.account.Caller;
import com.example.identity.account.Role;

import tools.jackson.databind.JsonNode;

/**
 * Node's openid-client (v6, the relying-party library of Node web sites) against the running service:
 * {@code src/test/node/openid-client/relying-party.mjs} discovers the issuer, logs a user in with PKCE, state
 * and nonce (following the login form and the consent page itself), exchanges the code (the library
 * validates the id_token against the JWKS), reads UserInfo, refreshes (the refresh token rotates), presents
 * the rotated refresh token again (the family is revoked) and logs out with its end-session URL. This class
 * registers the application and the user, installs the program's locked dependencies once
 * ({@code npm ci} in {@code target/node/openid-client}, again only when {@code package-lock.json} changes) and
 * runs it with a time limit.
 * <p>
 * Without Node.js 20 or later and npm the test is skipped with a warning on a developer's machine, and fails
 * under CI ({@code CI=true}, as {@code .ci/run} sets).
 */
class NodeOpenIdClientIT extends OAuthTestBase {

    static final Path SOURCE = Path.of("src", "test", "node", "openid-client");
    static final Path WORK = Path.of("target", "node", "openid-client");
    static final List<String> FILES = List.of("package.json", "package-lock.json", "relying-party.mjs",
            "launcher-par-dpop.mjs");

    @Test
    void openIdClientLogsInReadsUserInfoRefreshesDetectsReuseAndLogsOut() throws Exception {
        Path workDir = installedProgram();
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        String loggedOut = "https://rp.example/adios/" + UUID.randomUUID();
        var registered = clients.register(owner, "Sitio Node", "https://rp.example/cb/" + UUID.randomUUID(),
                List.of(loggedOut));
        clients.setFirstParty(new Caller(admin, true), registered.clientId(), true);
        String email = "node-" + UUID.randomUUID() + "@example.com";
        long userId = accounts.create("Nerea", email, "correct-password-123", Role.USER).getId();

        var run = run(workDir, Map.of(
                "OP_ISSUER", ISSUER,
                "RP_CLIENT_ID", registered.clientId(),
                "RP_CLIENT_SECRET", registered.clientSecret(),
                "RP_REDIRECT_URI", registered.redirectUri(),
                "RP_POST_LOGOUT_REDIRECT_URI", loggedOut,
                "RP_USER_EMAIL", email,
                "RP_USER_PASSWORD", "correct-password-123"), 120, "node", "relying-party.mjs");

        System.out.println("openid-client relying party: " + run.stdout().strip());
        assertThat(run.exitCode()).as("relying-party.mjs failed:\n%s", run.output()).isZero();
        JsonNode summary = JSON.readTree(lastLine(run.stdout()));
        assertThat(summary.get("ok").asBoolean()).isTrue();
        assertThat(summary.get("steps").valueStream().map(s -> s.get("step").asString()).toList()).containsExactly(
                "discovery", "authorization", "code exchange", "userinfo", "refresh", "refresh token reuse", "logout");
        assertThat(summary.get("steps").get(0).get("issuer").asString()).isEqualTo(ISSUER);
        assertThat(summary.get("steps").get(1).get("pages").valueStream().map(JsonNode::asString).toList())
                .containsExactly("login", "consent");
        assertThat(summary.get("steps").get(2).get("sub").asString()).isEqualTo("user:" + userId);
        assertThat(summary.get("steps").get(5).get("reuse").asString()).isEqualTo("invalid_grant");
        assertThat(summary.get("steps").get(6).get("post_logout_redirect").asString()).startsWith(loggedOut + "?state=");
        // what the program saw, checked from the server's side: the family of the grant is revoked
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where user_id = ? and client_id = ?",
                Long.class, userId, registered.clientId())).as("access tokens issued").isEqualTo(2);
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where user_id = ? and client_id = ?"
                + " and revoked_at is null", Long.class, userId, registered.clientId())).as("live access tokens").isZero();
        assertThat(jdbc.queryForObject("select count(*) from refresh_tokens where user_id = ? and client_id = ?"
                + " and revoked_at is null and rotated_at is null", Long.class, userId, registered.clientId()))
                .as("live refresh tokens").isZero();
    }

    /**
     * A game launcher with openid-client (decisions §28, {@code launcher-par-dpop.mjs}): a public client that pushes its
     * authorization request to {@code /oauth/par.php} (the browser carries only {@code client_id} and
     * {@code request_uri}), logs in with PKCE, holds DPoP-bound tokens, calls both UserInfo endpoints with its proofs,
     * sees its token refused as Bearer and with another key, refreshes only with its key, and finds the
     * {@code request_uri} spent. The server's side: the tokens are bound to one key, the same for all.
     */
    @Test
    void aLauncherPushesItsRequestAndHoldsDPoPBoundTokens() throws Exception {
        Path workDir = installedProgram();
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        var launcher = clients.register(owner, "Lanzador Node", "http://127.0.0.1/cb", List.of(),
                com.example.identity.client.ClientType.NATIVE, null,
                new com.example.identity.client.SenderConstraints(true, true));
        clients.setFirstParty(new Caller(admin, true), launcher.clientId(), true);
        String email = "launcher-" + UUID.randomUUID() + "@example.com";
        long userId = accounts.create("Lara", email, "correct-password-123", Role.USER).getId();

        var run = run(workDir, Map.of(
                "OP_ISSUER", ISSUER,
                "RP_CLIENT_ID", launcher.clientId(),
                "RP_REDIRECT_URI", "http://127.0.0.1:7777/cb",
                "RP_USER_EMAIL", email,
                "RP_USER_PASSWORD", "correct-password-123"), 120, "node", "launcher-par-dpop.mjs");

        System.out.println("openid-client launcher: " + run.stdout().strip());
        assertThat(run.exitCode()).as("launcher-par-dpop.mjs failed:\n%s", run.output()).isZero();
        JsonNode summary = JSON.readTree(lastLine(run.stdout()));
        assertThat(summary.get("steps").valueStream().map(s -> s.get("step").asString()).toList()).containsExactly(
                "discovery", "pushed request", "authorization", "code exchange", "userinfo", "api userinfo",
                "stolen token", "refresh", "request_uri once");
        assertThat(summary.get("steps").get(1).get("browser_carries").valueStream().map(JsonNode::asString).toList())
                .containsExactly("client_id", "request_uri");
        assertThat(summary.get("steps").get(3).get("sub").asString()).isEqualTo("user:" + userId);
        assertThat(summary.get("steps").get(7).get("without_proof").asString()).isEqualTo("invalid_dpop_proof");
        // the server's side: every token of the launcher is bound, to one key
        assertThat(jdbc.queryForList("select distinct dpop_jkt from api_tokens where client_id = ?", String.class,
                launcher.clientId())).singleElement().asString().hasSize(43);
        assertThat(jdbc.queryForList("select dpop_jkt from refresh_tokens where client_id = ?", String.class,
                launcher.clientId())).hasSize(2).doesNotContainNull()
                .containsOnly(jdbc.queryForObject("select max(dpop_jkt) from api_tokens where client_id = ?",
                        String.class, launcher.clientId()));
        assertThat(jdbc.queryForObject("select count(*) from pushed_authorization_requests where client_id = ?",
                Integer.class, launcher.clientId())).as("the pushed request was taken").isZero();
    }

    /** The program and its locked dependencies in {@code target/node/openid-client}; skips or fails without Node. */
    static Path installedProgram() throws Exception {
        requireNode();
        Files.createDirectories(WORK);
        for (String file : FILES) {
            Files.copy(SOURCE.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        Path installed = WORK.resolve(".installed-package-lock.json");
        byte[] lock = Files.readAllBytes(SOURCE.resolve("package-lock.json"));
        if (!Files.isDirectory(WORK.resolve("node_modules/openid-client")) || !Files.exists(installed)
                || !java.util.Arrays.equals(lock, Files.readAllBytes(installed))) {
            var install = run(WORK, Map.of(), 300, "npm", "ci", "--no-audit", "--no-fund");
            assertThat(install.exitCode()).as("npm ci failed:\n%s", install.output()).isZero();
            Files.write(installed, lock);
        }
        return WORK;
    }

    /** Node.js 20 or later and npm, or a skip with a warning (a failure under CI). */
    static void requireNode() throws InterruptedException {
        String problem = null;
        try {
            var node = run(Path.of("."), Map.of(), 30, "node", "--version");
            Matcher version = Pattern.compile("^v(\\d+)\\.").matcher(node.stdout().trim());
            if (node.exitCode() != 0 || !version.find()) {
                problem = "node --version failed: " + node.output();
            }
            else if (Integer.parseInt(version.group(1)) < 20) {
                problem = "Node.js " + node.stdout().trim() + " is too old: openid-client 6 needs Node.js 20 or later";
            }
            else if (run(Path.of("."), Map.of(), 30, "npm", "--version").exitCode() != 0) {
                problem = "npm --version failed";
            }
        }
        catch (IOException e) {
            problem = "Node.js or npm is not installed (" + e.getMessage() + ")";
        }
        if (problem == null) {
            return;
        }
        String message = "The openid-client relying-party test did not run: " + problem
                + " (apt-get install nodejs npm, Node.js 20 or later)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail(message);
        }
        System.out.println("WARNING: " + message);
        Assumptions.abort(message);
    }

    record Run(int exitCode, String stdout, String stderr) {
        String output() {
            return stdout + (stderr.isEmpty() ? "" : "\n[stderr]\n" + stderr);
        }
    }

    /** Runs a command in {@code dir} with extra environment variables; killed after {@code timeoutSeconds}. */
    static Run run(Path dir, Map<String, String> environment, int timeoutSeconds, String... command)
            throws IOException, InterruptedException {
        var builder = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(dir.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        CompletableFuture<String> stdout = read(process.getInputStream());
        CompletableFuture<String> stderr = read(process.getErrorStream());
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            Assertions.fail(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s:\n"
                    + stdout.getNow("") + "\n" + stderr.getNow(""));
        }
        return new Run(process.exitValue(), stdout.join(), stderr.join());
    }

    private static CompletableFuture<String> read(java.io.InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            }
            catch (IOException e) {
                return "";
            }
        });
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }
}
