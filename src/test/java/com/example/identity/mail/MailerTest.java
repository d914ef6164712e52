package com.example.identity.mail;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mock.env.MockEnvironment;

/**
 * Mail without an SMTP server (decisions §17): each message is written as an {@code .eml} file under
 * {@code identity.mail.directory} and the log says where, never what it says; the start says where files
 * go, at INFO on the embedded database and as a WARN on PostgreSQL, where nobody reads them.
 */
@ExtendWith(OutputCaptureExtension.class)
class MailerTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);

    @TempDir
    Path directory;

    Mailer mailer(String datasourceUrl, JavaMailSender smtp) {
        var environment = new MockEnvironment();
        if (datasourceUrl != null) {
            environment.setProperty("spring.datasource.url", datasourceUrl);
        }
        var beans = new StaticListableBeanFactory();
        if (smtp != null) {
            beans.addBean("mailSender", smtp);
        }
        return new Mailer(beans.getBeanProvider(JavaMailSender.class),
                new MailSettings("Identidad <no-reply@localhost>", directory), CLOCK, environment);
    }

    /** The log line that contains {@code text}. */
    static String line(CapturedOutput output, String text) {
        return output.getAll().lines().filter(l -> l.contains(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no log line with \"" + text + "\" in:\n" + output.getAll()));
    }

    @Test
    void withoutSmtpAMessageIsWrittenAsAnEmlFileAndTheLogSaysWhere(CapturedOutput output) throws Exception {
        Mailer mailer = mailer("jdbc:h2:file:./data/identity", null);
        mailer.send("ana@example.com", "Restablece tu contraseña", "Hola: https://id.example.com/secreto-de-un-uso",
                "<p>Hola: <a href=\"https://id.example.com/secreto-de-un-uso\">enlace</a></p>");

        List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.toList();
        }
        assertThat(files).hasSize(1);
        Path file = files.get(0);
        assertThat(file.getFileName().toString()).matches("20260102-030405-[0-9a-f]{8}\\.eml");
        assertThat(line(output, "Mail \"Restablece tu contraseña\" written to "))
                .contains("INFO")
                .endsWith("Mail \"Restablece tu contraseña\" written to " + file.toAbsolutePath().normalize()
                        + " (no SMTP server configured)");
        assertThat(output.getAll()).as("the content is never logged").doesNotContain("secreto-de-un-uso");

        try (InputStream in = Files.newInputStream(file)) {
            MimeMessage message = new MimeMessage(Session.getInstance(new Properties()), in);
            assertThat(message.getSubject()).isEqualTo("Restablece tu contraseña");
            assertThat(message.getRecipients(Message.RecipientType.TO)[0].toString()).isEqualTo("ana@example.com");
            assertThat(message.getFrom()[0].toString()).isEqualTo("Identidad <no-reply@localhost>");
            assertThat(message.getSentDate().toInstant()).isEqualTo(CLOCK.instant());
        }
    }

    /**
     * The file is read by a person: the plain text is as written (no quoted-printable {@code =3D} in a link, no
     * line broken inside it), so the link copied or grepped from the file works; the HTML is base64, so a search
     * finds only the text's links. A mail reader still shows both parts.
     */
    @Test
    void aFileHoldsItsLinksAsTheyAreSoTheyCanBeCopied() throws Exception {
        String link = "http://localhost:8080/login/restablecer?token=" + "Ab0_-".repeat(8) + "xyz";
        String longLine = "Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta "
                + "ana-con-un-correo-largo@example.com.";
        mailer("jdbc:h2:file:./data/identity", null).send("ana@example.com", "Restablece tu contraseña",
                "Hola, Ana:\n\n" + longLine + "\n\n" + link + "\n",
                "<p>Hola</p><p><a href=\"" + link.replace("&", "&amp;") + "\">Elegir</a></p>");

        Path file;
        try (Stream<Path> listed = Files.list(directory)) {
            file = listed.findFirst().orElseThrow();
        }
        String raw = Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
        assertThat(raw.replace("\r\n", "\n")).contains("\n" + link + "\n").contains(longLine).doesNotContain("=3D")
                .contains("Content-Transfer-Encoding: 8bit").contains("Content-Transfer-Encoding: base64");
        var links = java.util.regex.Pattern.compile("http[^\"< ]*restablecer\\?token=[A-Za-z0-9_-]*").matcher(raw)
                .results().map(java.util.regex.MatchResult::group).toList();
        assertThat(links).as("what docs/account.md's grep finds").containsExactly(link);

        try (InputStream in = Files.newInputStream(file)) {
            MimeMessage message = new MimeMessage(Session.getInstance(new Properties()), in);
            var parts = (jakarta.mail.Multipart) ((jakarta.mail.Multipart) ((jakarta.mail.Multipart) message.getContent())
                    .getBodyPart(0).getContent()).getBodyPart(0).getContent();
            assertThat(parts.getBodyPart(0).getContent()).isEqualTo("Hola, Ana:\n\n" + longLine + "\n\n" + link + "\n");
            assertThat((String) parts.getBodyPart(1).getContent()).contains("href=\"" + link + "\"");
        }
    }

    @Test
    void onTheEmbeddedDatabaseTheStartSaysWhereMailGoesAtInfo(CapturedOutput output) {
        mailer("jdbc:h2:file:./data/identity", null);
        mailer(null, null);

        assertThat(line(output, "No SMTP server configured")).contains("INFO").endsWith(
                "No SMTP server configured (spring.mail.host): mail is written as .eml files under "
                        + directory.toAbsolutePath().normalize());
        assertThat(output.getAll()).doesNotContain("WARN");
    }

    @Test
    void onPostgreSqlTheStartWarnsThatMailIsNotDelivered(CapturedOutput output) {
        mailer("jdbc:postgresql://db.example.com:5432/identity", null);

        assertThat(line(output, "No SMTP server configured")).contains("WARN")
                .contains("mail is NOT delivered")
                .contains("written as .eml files under " + directory.toAbsolutePath().normalize() + " on this instance")
                .contains("Set spring.mail.host (SPRING_MAIL_HOST), spring.mail.port");
    }

    @Test
    void withAnSmtpServerTheStartSaysNothing(CapturedOutput output) {
        mailer("jdbc:postgresql://db.example.com:5432/identity", new JavaMailSenderImpl());

        assertThat(output.getAll()).doesNotContain("No SMTP server configured");
    }
}
