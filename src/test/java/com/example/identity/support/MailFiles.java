package com.example.identity.support;

import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;

/**
 * The mail a test context without SMTP wrote as {@code .eml} files ({@code identity.mail.directory} is
 * {@code target/mail} in the tests), read back as a mail client would.
 */
public final class MailFiles {

    private MailFiles() {
    }

    /** The newest message to {@code email} with {@code subject}, waiting up to 10 s for it. */
    public static MimeMessage newest(String email, String subject) throws Exception {
        Path directory = Path.of("target", "mail");
        return await("an .eml \"" + subject + "\" for " + email + " under " + directory.toAbsolutePath())
                .atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(() -> find(directory, email, subject), Optional::isPresent).orElseThrow();
    }

    /**
     * Every message to {@code email} with {@code subject} written so far, newest first as far as the names tell
     * (they are to the second: two messages of one second come in either order).
     */
    public static List<MimeMessage> all(String email, String subject) throws Exception {
        Path directory = Path.of("target", "mail");
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.filter(p -> p.toString().endsWith(".eml"))
                    .sorted(Comparator.comparing(Path::toString).reversed()).toList();
        }
        List<MimeMessage> found = new java.util.ArrayList<>();
        for (Path file : files) {
            Optional<MimeMessage> message = read(file);
            if (message.isPresent() && message.get().getSubject().equals(subject)
                    && message.get().getRecipients(Message.RecipientType.TO)[0].toString().equals(email)) {
                found.add(message.get());
            }
        }
        return found;
    }

    private static Optional<MimeMessage> find(Path directory, String email, String subject) throws Exception {
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.filter(p -> p.toString().endsWith(".eml"))
                    .sorted(Comparator.comparing(Path::toString).reversed()).toList();
        }
        for (Path file : files) {
            Optional<MimeMessage> message = read(file);
            if (message.isPresent() && message.get().getSubject().equals(subject)
                    && message.get().getRecipients(Message.RecipientType.TO)[0].toString().equals(email)) {
                return message;
            }
        }
        return Optional.empty();
    }

    /** The first link of the message's plain text that matches {@code link}: {@link Mailbox#link}. */
    public static String link(MimeMessage message, Pattern link) {
        return Mailbox.link(message, link);
    }

    /** The message's plain text, as a mail client shows it: {@link Mailbox#text}. */
    public static String text(MimeMessage message) {
        return Mailbox.text(message);
    }

    private static Optional<MimeMessage> read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MimeMessage message = new MimeMessage(Session.getInstance(new Properties()), in);
            message.getSubject();
            return Optional.of(message);
        }
        catch (Exception e) {
            return Optional.empty(); // being written
        }
    }
}
