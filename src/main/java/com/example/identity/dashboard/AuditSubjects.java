package com.example.identity.dashboard;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.context.MessageSource;

/**
 * What an audit line is about, in the page's language. The trail stores it as written when it happened, in Spanish
 * ({@code usuario #4}, {@code autorización 12 de usuario #4; tokens revocados: 2}): history is never rewritten, and
 * the data export and the logs keep those bytes. The page shows it in its own language by putting, for each phrase
 * the service writes ({@code audit.phrase.*} messages: the Spanish value is the phrase as stored), the page's
 * wording in its place. What people typed (names, addresses, passkey names) stays as it is, as far as it does not
 * contain one of those phrases whole.
 */
final class AuditSubjects {

    /** The phrases, longest first so that a longer one is replaced before a shorter one inside it. */
    static final List<String> PHRASES = List.of("linked-before-proof", "sanction-everywhere", "sanction-in-application", "sanction-until",
            "sanction-permanent", "suspended-account", "sanction", "personal-tokens-of-user", "refresh-token-of", "tokens-revoked",
            "of-user", "by-user", "passkey-disabled-account", "password-second-factor", "with-passkey",
            "with-recovery-code", "all-others", "one-session", "third-party", "first-party", "signing-from",
            "attempts-refused", "no-longer-developer", "by-an-admin", "for-the-application", "idle-guest", "imported-hash", "guest", "by-sign-up",
            "parental-consent-refused", "no-parental-consent",
            "second-factor", "passkey-named", "passkey", "user", "authorization", "application", "key");

    /** An e-mail change: {@code usuario #4 de old@x a new@x}, or its request {@code usuario #4 a new@x}. */
    static final Pattern CHANGE = Pattern.compile("^(usuario #\\d+)(?: de (\\S+))? a (\\S+)$");

    private static final Locale SPANISH = Locale.forLanguageTag("es");

    private final MessageSource messages;
    private final Locale locale;

    AuditSubjects(MessageSource messages, Locale locale) {
        this.messages = messages;
        this.locale = locale;
    }

    String shown(String subject) {
        if (subject == null || locale.getLanguage().equals(SPANISH.getLanguage())) {
            return subject;
        }
        String text = subject;
        Matcher change = CHANGE.matcher(text);
        if (change.matches()) {
            text = change.group(2) == null
                    ? messages.getMessage("audit.change.requested", new Object[] { change.group(1), change.group(3) }, locale)
                    : messages.getMessage("audit.change.done", new Object[] { change.group(1), change.group(2), change.group(3) },
                            locale);
        }
        for (String phrase : PHRASES) {
            String key = "audit.phrase." + phrase;
            text = text.replace(messages.getMessage(key, null, SPANISH), messages.getMessage(key, null, locale));
        }
        return text;
    }
}
