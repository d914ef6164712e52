package com.example.identity.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line of {@code import}: at least one readable file, each once, and the two switches. */
class ImportOptionsTest {

    @TempDir
    Path dir;

    Path users;
    Path clients;

    @BeforeEach
    void files() throws IOException {
        users = Files.writeString(dir.resolve("usuarios.jsonl"), "");
        clients = Files.writeString(dir.resolve("aplicaciones.jsonl"), "");
    }

    @Test
    void theFilesAndSwitchesAfterTheCommandAreRead() {
        ImportOptions options = ImportOptions.parse(new String[] { "import", "--users=" + users, "--clients=" + clients,
                "--dry-run", "--update" });
        assertThat(options).isEqualTo(new ImportOptions(users, null, clients, true, true));
    }

    @Test
    void switchesAreOffUnlessGiven() {
        ImportOptions options = ImportOptions.parse(new String[] { "import", "--users=" + users });
        assertThat(options.dryRun()).isFalse();
        assertThat(options.update()).isFalse();
        assertThat(options.tokens()).isNull();
    }

    @Test
    void springBootOptionsAreLeftToSpring() {
        ImportOptions options = ImportOptions.parse(new String[] { "import", "--users=" + users,
                "--spring.datasource.url=jdbc:postgresql://db/identity", "--identity.issuer=https://id.example.com",
                "--logging.level.root=WARN", "--management.server.port=0", "--server.port=0" });
        assertThat(options.users()).isEqualTo(users);
    }

    @Test
    void atLeastOneFileIsNeeded() {
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--dry-run" }))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("falta --users, --tokens o --clients");
    }

    @Test
    void anUnknownArgumentIsRefusedByName() {
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--users=" + users, "--dryrun" }))
                .hasMessage("argumento desconocido: --dryrun");
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--users=" + users, "--other.x=1" }))
                .hasMessage("argumento desconocido: --other.x=1");
    }

    @Test
    void aFileMayBeGivenOnceAndMustBeReadable() {
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--users=" + users, "--users=" + users }))
                .hasMessage("--users repetido");
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--tokens=" }))
                .hasMessage("--tokens sin fichero");
        Path missing = dir.resolve("no-existe.jsonl");
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--clients=" + missing }))
                .hasMessage("--clients: no se puede leer el fichero " + missing);
        assertThatThrownBy(() -> ImportOptions.parse(new String[] { "import", "--users=" + dir }))
                .as("a directory").hasMessage("--users: no se puede leer el fichero " + dir);
    }
}
