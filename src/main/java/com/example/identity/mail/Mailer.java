package com.example.identity.mail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Properties;

import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.mail.MailException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;

import com.example.identity.crypto.Secrets;

/**
 * Sends the service's mail: one message, in plain text and HTML (multipart/alternative), UTF-8. With an
 * SMTP server configured ({@code spring.mail.host}: Spring Boot then provides a {@link JavaMailSender}) it
 * goes there; without one, the message is written as an {@code .eml} file under
 * {@code identity.mail.directory} and the log says where, so the embedded default works without a mail
 * server; on PostgreSQL (production) the start warns that mail is not delivered. The log never shows a message's content (it may hold a single-use link).
 */
@Component
public class Mailer {

    private static final Logger log = LoggerFactory.getLogger(Mailer.class);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final JavaMailSender smtp;
    private final MailSettings settings;
    private final Clock clock;

    Mailer(ObjectProvider<JavaMailSender> smtp, MailSettings settings, Clock clock, Environment environment) {
        this.smtp = smtp.getIfAvailable();
        this.settings = settings;
        this.clock = clock;
        if (this.smtp == null) {
            Path directory = settings.directory().toAbsolutePath().normalize();
            if (environment.getProperty("spring.datasource.url", "").startsWith("jdbc:postgresql:")) {
                // PostgreSQL is production: nobody reads files on each instance's disk
                log.warn("No SMTP server configured (spring.mail.host): mail is NOT delivered. Password recovery "
                        + "links and e-mail change confirmations are only written as .eml files under {} on this "
                        + "instance. Set spring.mail.host (SPRING_MAIL_HOST), spring.mail.port, spring.mail.username "
                        + "and spring.mail.password (docs/account.md, Password recovery)", directory);
            }
            else {
                log.info("No SMTP server configured (spring.mail.host): mail is written as .eml files under {}",
                        directory);
            }
        }
    }

    /** A message to {@code to}; whether it reached SMTP or a file is logged, never its content. */
    public void send(String to, String subject, String text, String html) {
        try {
            MimeMessage message = smtp != null ? smtp.createMimeMessage()
                    : new MimeMessage(Session.getInstance(new Properties()));
            var helper = new MimeMessageHelper(message, true, "UTF-8");
            helper.setFrom(settings.from());
            helper.setTo(to);
            helper.setSubject(subject);
            helper.setText(text, html);
            message.setSentDate(java.util.Date.from(clock.instant()));
            if (smtp != null) {
                smtp.send(message);
                log.info("Mail \"{}\" sent through SMTP", subject);
            }
            else {
                Path file = write(message);
                log.info("Mail \"{}\" written to {} (no SMTP server configured)", subject, file);
            }
        }
        catch (MessagingException | MailException | IOException e) {
            throw new MailNotSent(e);
        }
    }

    private Path write(MimeMessage message) throws IOException, MessagingException {
        Path directory = settings.directory().toAbsolutePath().normalize();
        Files.createDirectories(directory);
        Path file = directory.resolve(FILE_TIME.format(clock.instant()) + "-" + Secrets.randomHex(4) + ".eml");
        readableAsAFile(message);
        message.saveChanges();
        // written aside, then renamed: whoever lists the directory (a person, a test) never reads half a message
        Path part = directory.resolve(file.getFileName() + ".part");
        try (OutputStream out = Files.newOutputStream(part)) {
            message.writeTo(out);
        }
        Files.move(part, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /**
     * A file is read by a person: its plain text goes as it is (8bit UTF-8, no quoted-printable, so a link reads
     * {@code token=...} on one line and can be copied or grepped as it stands), and the HTML, one long line, in
     * base64, so the only links a text search of the file finds are the plain text's. Mail through SMTP keeps
     * the encodings Jakarta Mail chooses.
     */
    static void readableAsAFile(Part part) throws MessagingException, IOException {
        // before saveChanges the headers are not written yet: the content and its data handler's type say what it is
        if (part.getContent() instanceof Multipart parts) {
            for (int i = 0; i < parts.getCount(); i++) {
                readableAsAFile(parts.getBodyPart(i));
            }
        }
        else if (part instanceof MimeBodyPart body) {
            String type = body.getDataHandler().getContentType().toLowerCase(java.util.Locale.ROOT);
            if (type.startsWith("text/plain")) {
                body.setHeader("Content-Transfer-Encoding", "8bit");
            }
            else if (type.startsWith("text/html")) {
                body.setHeader("Content-Transfer-Encoding", "base64");
            }
        }
    }

    /** A message that could not be handed to SMTP or written; the cause names the server, not the message. */
    public static final class MailNotSent extends RuntimeException {

        private static final long serialVersionUID = 1L;

        MailNotSent(Exception cause) {
            super("mail not sent: " + cause.getClass().getSimpleName(), cause);
        }
    }
}
