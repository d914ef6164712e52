package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Every Spanish text that a page controller, or a service behind a page, writes for the person to read is (part
 * of) a message, so {@link PageMessages} can show it in English: the string literals of these classes that read
 * as Spanish words are looked for in {@code messages.properties}. Audit subjects and log lines are not for the
 * page ({@link #NOT_SHOWN}).
 */
class PageTextsTest {

    static final Path SOURCES = Path.of("src/main/java/com/example/identity");

    /** The classes whose texts reach a page's notice or error (PageMessages.ATTRIBUTES). */
    static final List<String> WRITERS = List.of("dashboard/AdminController.java",
            "dashboard/DeveloperDashboardController.java", "dashboard/ClientForm.java", "settings/AccountPagesController.java",
            "settings/PasswordChangeController.java", "settings/TotpSettingsController.java",
            "settings/AccountDeletionController.java", "signin/SecondStepController.java",
            "recovery/PasswordRecoveryController.java", "registration/RegistrationController.java",
            "registration/Registrations.java", "deviceflow/ActivationController.java", "federation/SecurityPageLinks.java",
            "federation/LoginPageProviders.java", "oauth/logout/LogoutEndpoint.java", "consent/ConsentController.java",
            "account/AccountService.java", "account/AccountAdministration.java", "account/EmailChanges.java",
            "client/ClientService.java", "client/RegistrationUris.java", "client/RedirectUriRule.java", "common/ListQuery.java",
            "web/ErrorPages.java", "dashboard/SanctionsController.java", "dashboard/SanctionForm.java",
            "sanctions/SanctionRefused.java");

    /**
     * Texts of those classes that no page shows: audit subjects, the key states the template maps itself, an OAuth
     * error_description (the contract's Spanish, decisions §22).
     */
    static final Set<String> NOT_SHOWN = Set.of(": 1 sesión (", ": todas las demás (", "con código de recuperación",
            "contraseña al activar el segundo factor", "aplicación", "publicada, firmará pronto",
            "retirada, solo verifica", "El usuario no ha dado su consentimiento");

    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
    private static final Pattern SPANISH = Pattern.compile("[áéíóúñ¿¡]|^[A-ZÁÉÍÓÚ][a-záéíóúñ]+ [a-záéíóúñ]");

    @Test
    void everyTextAPageShowsIsAMessage() throws IOException {
        Collection<String> messages = MessagesTest.load("messages.properties").values().stream()
                .map(String::valueOf).toList();
        List<String> missing = new ArrayList<>();
        for (String file : WRITERS) {
            String source = Files.readString(SOURCES.resolve(file), StandardCharsets.UTF_8)
                    .replaceAll("\"\\s*\\+\\s*\"", ""); // "a " + "b" (also across lines) is one text
            for (String line : source.split("\n")) {
                String code = line.strip();
                if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*") || code.contains("log.")) {
                    continue;
                }
                Matcher literal = LITERAL.matcher(line);
                while (literal.find()) {
                    String text = literal.group(1).strip();
                    if (!SPANISH.matcher(text).find() || NOT_SHOWN.contains(text)) {
                        continue;
                    }
                    if (messages.stream().noneMatch(m -> m.contains(text))) {
                        missing.add(file + ": \"" + text + "\"");
                    }
                }
            }
        }
        assertThat(missing).as("texts without a page.* message in messages.properties").isEmpty();
    }
}
