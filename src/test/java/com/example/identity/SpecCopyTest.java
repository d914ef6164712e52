package com.example.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract's copy in {@code docs/spec/} (what a person who clones the repository reads) is the shared
 * specification byte for byte, wherever that is beside the checkout ({@code ../shared/spec/}); skipped without it.
 */
class SpecCopyTest {

    @ParameterizedTest
    @ValueSource(strings = { "identity-service.md", "decisions.md" })
    void theCopyInDocsIsTheSharedSpecification(String name) throws IOException {
        Path copy = Path.of("docs", "spec", name);
        Path shared = Path.of("..", "shared", "spec", name);
        assertThat(copy).as("the repository's copy").exists();
        Assumptions.assumeTrue(Files.exists(shared), "no " + shared.toAbsolutePath().normalize() + " beside the checkout");
        assertThat(Files.readAllBytes(copy)).as(copy + " is " + shared + " byte for byte")
                .isEqualTo(Files.readAllBytes(shared));
    }
}
