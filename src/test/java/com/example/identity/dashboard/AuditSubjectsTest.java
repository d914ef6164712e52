package com.example.identity.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.ResourceBundleMessageSource;

/** The audit trail's lines, stored in Spanish, shown in the page's language; Spanish pages show the stored bytes. */
class AuditSubjectsTest {

    static AuditSubjects in(String language) {
        var messages = new ResourceBundleMessageSource();
        messages.setBasename("messages");
        messages.setDefaultEncoding("UTF-8");
        messages.setFallbackToSystemLocale(false);
        return new AuditSubjects(messages, Locale.forLanguageTag(language));
    }

    @Test
    void englishPagesShowTheLinesInEnglish() {
        var english = in("en");
        assertThat(english.shown("usuario #4")).isEqualTo("user #4");
        assertThat(english.shown("usuario #4 ana@example.com")).isEqualTo("user #4 ana@example.com");
        assertThat(english.shown("autorización 12 de usuario #4; tokens revocados: 2"))
                .isEqualTo("authorization 12 of user #4; tokens revoked: 2");
        assertThat(english.shown("usuario #14 de antes@example.com a despues@example.com"))
                .isEqualTo("user #14 from antes@example.com to despues@example.com");
        assertThat(english.shown("usuario #14 a nueva@example.com")).isEqualTo("user #14 to nueva@example.com");
        assertThat(english.shown("usuario #3: 1 sesión (abc)")).isEqualTo("user #3: 1 session (abc)");
        assertThat(english.shown("3 tokens personales de usuario #9")).isEqualTo("3 personal tokens of user #9");
        assertThat(english.shown("usuario #7 (invitado) para la aplicación abc")).as("a guest's creation")
                .isEqualTo("user #7 (guest) for the application abc");
        assertThat(english.shown("usuario #7 (invitado) → usuario #7 ana@example.com (registro)")).as("its conversion")
                .isEqualTo("user #7 (guest) → user #7 ana@example.com (sign-up)");
        assertThat(english.shown("sanción #7 de usuario #4 en todas las aplicaciones, hasta 2027-01-31 12:00 UTC: Acoso; "
                + "tokens revocados: 3")).isEqualTo("sanction #7 of user #4 in every application, until 2027-01-31 12:00 UTC: "
                + "Acoso; tokens revoked: 3");
        assertThat(english.shown("sanción #8 de usuario #4 en la aplicación abc, permanente: Trampas"))
                .isEqualTo("sanction #8 of user #4 in application abc, permanent: Trampas");
        assertThat(english.shown("cuenta suspendida")).isEqualTo("suspended account");
        assertThat(english.shown("usuario #8: google (vinculada antes de demostrar el correo)"))
                .isEqualTo("user #8: google (linked before the address was proved)");
        assertThat(english.shown("usuario #7 (invitado sin uso)")).as("an idle guest deleted by the retention job")
                .isEqualTo("user #7 (unused guest)");
        assertThat(english.shown("usuario #9 ana@example.com (hash importado)")).as("a password hash brought by the importer")
                .isEqualTo("user #9 ana@example.com (imported hash)");
        assertThat(english.shown(null)).isNull();
        assertThat(english.shown("dev@example.com")).as("no phrase: as stored").isEqualTo("dev@example.com");
    }

    @Test
    void spanishPagesShowTheStoredBytes() {
        assertThat(in("es").shown("autorización 12 de usuario #4; tokens revocados: 2"))
                .isEqualTo("autorización 12 de usuario #4; tokens revocados: 2");
    }
}
