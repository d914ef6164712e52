package com.example.identity.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.MimeMessage;

import org.awaitility.core.ConditionTimeoutException;
import org.springframework.test.context.DynamicPropertyRegistry;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;

/**
 * A real SMTP server in the test (GreenMail on a free port, no authentication, one for the whole test class) that
 * the application's mail goes to, and what a reader finds in a message: its text, its HTML, the link in it. A test
 * class registers it and points {@code spring.mail.*} at it in a {@code @DynamicPropertySource} method of its own:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(5));
 *
 * &#64;DynamicPropertySource
 * static void mail(DynamicPropertyRegistry registry) {
 *     MAIL.register(registry);
 * }
 * </pre>
 *
 * The method stays in each class on purpose: Spring's context cache tells contexts apart by their
 * {@code @DynamicPropertySource} methods, so each class keeps the application context (and the port) of its own
 * that it had.
 */
public final class Mailbox extends GreenMailExtension {

    private final Duration wait;

    /** A server whose {@link #mailFor} waits up to {@code wait} for the mail a test expects. */
    public Mailbox(Duration wait) {
        super(ServerSetupTest.SMTP.dynamicPort());
        withConfiguration(GreenMailConfiguration.aConfig().withDisabledAuthentication());
        withPerMethodLifecycle(false);
        this.wait = wait;
    }

    /** The application's mail sent here: {@code spring.mail.host} and {@code spring.mail.port}. */
    public void register(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.host", () -> "127.0.0.1");
        registry.add("spring.mail.port", () -> getSmtp().getPort());
    }

    /**
     * The messages received for {@code email}, oldest first, waiting for {@code count} of them; fewer when fewer came
     * within the wait (a test that expects no more waits the whole of it).
     */
    public List<MimeMessage> mailFor(String email, int count) {
        try {
            return await().atMost(wait).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .until(() -> List.of(getReceivedMessagesForDomain(email)), found -> found.size() >= count);
        }
        catch (ConditionTimeoutException fewer) {
            return List.of(getReceivedMessagesForDomain(email));
        }
    }

    /** The one message received for {@code email}, waiting for it; fails when none or more than one came. */
    public MimeMessage only(String email) {
        List<MimeMessage> found = mailFor(email, 1);
        assertThat(found).as("the mail for " + email).hasSize(1);
        return found.get(0);
    }

    /** The message's plain text, as a mail client shows it (quoted-printable decoded, lines ending in \n). */
    public static String text(MimeMessage message) {
        return part(message, "text/plain");
    }

    /** The message's HTML, as a mail client reads it (decoded, lines ending in \n). */
    public static String html(MimeMessage message) {
        return part(message, "text/html");
    }

    /** The first link of the message's plain text that matches {@code link} (group 1 if it has one). */
    public static String link(MimeMessage message, Pattern link) {
        String text = text(message);
        Matcher m = link.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no link " + link + " in:\n" + text);
        }
        return m.groupCount() > 0 ? m.group(1) : m.group();
    }

    private static String part(MimeMessage message, String type) {
        try {
            String found = find(message, type);
            if (found == null) {
                throw new AssertionError("no " + type + " part in \"" + message.getSubject() + "\"");
            }
            return found;
        }
        catch (java.io.IOException | jakarta.mail.MessagingException e) {
            throw new AssertionError(e);
        }
    }

    /** The {@code type} part, wherever MimeMessageHelper nested it; null when there is none. */
    private static String find(Part part, String type) throws java.io.IOException, jakarta.mail.MessagingException {
        if (part.isMimeType(type) && !part.isMimeType("multipart/*")) {
            return String.valueOf(part.getContent()).replace("\r\n", "\n"); // SMTP's line ends
        }
        if (part.getContent() instanceof Multipart multipart) {
            for (int i = 0; i < multipart.getCount(); i++) {
                String found = find(multipart.getBodyPart(i), type);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
