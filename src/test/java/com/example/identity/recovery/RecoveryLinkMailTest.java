package com.example.identity.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import com.example.identity.IdentityProperties;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.mail.Mailer;

/** The recovery mail: the link to the issuer's reset page, the name escaped in the HTML part. */
class RecoveryLinkMailTest {

    static final String TOKEN = "Zz_-".repeat(10) + "abc";

    @Test
    void theLinkLeadsToTheIssuersResetPage() {
        Mailer mailer = mock(Mailer.class);
        IdentityProperties properties = mock(IdentityProperties.class);
        when(properties.issuerUrl()).thenReturn("https://id.example.com");
        UserAccount ana = new UserAccount("Ana", "ana@example.com", "hash", Role.USER, Instant.EPOCH);
        new RecoveryLinkMail(mailer, properties).send(ana, TOKEN);
        String link = "https://id.example.com/login/restablecer?token=" + TOKEN;
        verify(mailer).send(eq("ana@example.com"), eq("Restablece tu contraseña"), contains("\n\n" + link + "\n\n"),
                contains("<a href=\"" + link + "\">Elegir una nueva contraseña</a>"));
    }

    @Test
    void theNameIsEscapedInHtmlOnly() {
        UserAccount odd = new UserAccount("<b>Ana</b>", "ana@example.com", "hash", Role.USER, Instant.EPOCH);
        assertThat(RecoveryLinkMail.html(odd, "https://id.example.com/x"))
                .contains("<p>Hola, &lt;b&gt;Ana&lt;/b&gt;:</p>").doesNotContain("<b>Ana");
        assertThat(RecoveryLinkMail.text(odd, "https://id.example.com/x")).startsWith("Hola, <b>Ana</b>:\n\n")
                .contains("en los próximos 30 minutos:\n\nhttps://id.example.com/x\n\n");
    }
}
