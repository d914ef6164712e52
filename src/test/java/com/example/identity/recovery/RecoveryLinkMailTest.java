package com.example.identity.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.ResourceBundleMessageSource;

import com.example.identity.IdentityProperties;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;

/** The recovery mail: the link to the issuer's reset page, the name escaped in the HTML part, in both languages. */
class RecoveryLinkMailTest {

    static final String TOKEN = "Zz_-".repeat(10) + "abc";
    static final Locale SPANISH = Locale.forLanguageTag("es");

    /** The application's messages, as Spring Boot configures them (spring.messages.*). */
    static ResourceBundleMessageSource messages() {
        ResourceBundleMessageSource messages = new ResourceBundleMessageSource();
        messages.setBasename("messages");
        messages.setDefaultEncoding("UTF-8");
        messages.setFallbackToSystemLocale(false);
        return messages;
    }

    @Test
    void theLinkLeadsToTheIssuersResetPage() {
        Mailer mailer = mock(Mailer.class);
        IdentityProperties properties = mock(IdentityProperties.class);
        when(properties.issuerUrl()).thenReturn("https://id.example.com");
        UserAccount ana = new UserAccount("Ana", "ana@example.com", "hash", Role.USER, Instant.EPOCH);
        new RecoveryLinkMail(mailer, messages(), properties).send(ana, TOKEN, SPANISH);
        String link = "https://id.example.com/login/restablecer?token=" + TOKEN;
        verify(mailer).send(eq("ana@example.com"), eq("Restablece tu contraseña"), contains("\n\n" + link + "\n\n"),
                contains("<a href=\"" + link + "\">Elegir una nueva contraseña</a>"));
    }

    @Test
    void theNameIsEscapedInHtmlOnly() {
        UserAccount odd = new UserAccount("<b>Ana</b>", "ana@example.com", "hash", Role.USER, Instant.EPOCH);
        Letter letter = RecoveryLinkMail.letter(messages(), SPANISH, odd, "https://id.example.com/x");
        assertThat(letter.html()).contains("<p>Hola, &lt;b&gt;Ana&lt;/b&gt;:</p>").doesNotContain("<b>Ana");
        assertThat(letter.text()).startsWith("Hola, <b>Ana</b>:\n\n")
                .contains("en los próximos 30 minutos:\n\nhttps://id.example.com/x\n\n");
    }

    /** Today's Spanish words, byte for byte, from the messages. */
    @Test
    void theSpanishTextIsTheSameAsBefore() {
        UserAccount ana = new UserAccount("Ana", "ana@example.com", "hash", Role.USER, Instant.EPOCH);
        Letter letter = RecoveryLinkMail.letter(messages(), SPANISH, ana, "https://id.example.com/x");
        assertThat(letter.text()).isEqualTo("Hola, Ana:\n\n"
                + "Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta ana@example.com"
                + ".\nPara elegir una nueva, abre este enlace en los próximos 30 minutos:\n\n"
                + "https://id.example.com/x\n\n"
                + "El enlace sirve una sola vez. Al usarlo se cerrarán todas las sesiones abiertas de tu cuenta.\n"
                + "Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.\n\n"
                + "Servicio de identidad\n");
    }

    @Test
    void inEnglishTheMailIsEnglish() {
        Mailer mailer = mock(Mailer.class);
        IdentityProperties properties = mock(IdentityProperties.class);
        when(properties.issuerUrl()).thenReturn("https://id.example.com");
        UserAccount ana = new UserAccount("Ana", "ana@example.com", "hash", Role.USER, Instant.EPOCH);
        new RecoveryLinkMail(mailer, messages(), properties).send(ana, TOKEN, Locale.ENGLISH);
        String link = "https://id.example.com/login/restablecer?token=" + TOKEN;
        verify(mailer).send(eq("ana@example.com"), eq("Reset your password"), eq("Hello Ana,\n\n"
                + "Someone (we hope you) has asked to reset the password of your account ana@example.com.\n"
                + "To choose a new one, open this link within the next 30 minutes:\n\n" + link + "\n\n"
                + "The link works only once. Using it closes every open session of your account.\n"
                + "If you did not ask for it, ignore this message: your password does not change.\n\n"
                + "Identity service\n"),
                contains("<html lang=\"en\">"));
    }
}
