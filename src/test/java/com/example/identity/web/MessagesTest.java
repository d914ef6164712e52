package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.StaticMessageSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

/**
 * The message files (docs/languages.md): every key in every language, no text left empty, apostrophes written as
 * MessageFormat reads them, and the page notices' bridge ({@link PageMessages}) translating texts with varying parts.
 */
class MessagesTest {

    /** Every language file besides the Spanish default; a new language adds its file here. */
    static final Set<String> LANGUAGES = Set.of("en");

    static Properties load(String file) throws IOException {
        return PropertiesLoaderUtils.loadProperties(new EncodedResource(new ClassPathResource(file), StandardCharsets.UTF_8));
    }

    @Test
    void everyKeyIsInEveryLanguage() throws IOException {
        Properties spanish = load("messages.properties");
        for (String language : LANGUAGES) {
            Properties other = load("messages_" + language + ".properties");
            Set<String> onlySpanish = new TreeSet<>(spanish.stringPropertyNames());
            onlySpanish.removeAll(other.stringPropertyNames());
            Set<String> onlyOther = new TreeSet<>(other.stringPropertyNames());
            onlyOther.removeAll(spanish.stringPropertyNames());
            assertThat(onlySpanish).as("keys missing from messages_%s.properties", language).isEmpty();
            assertThat(onlyOther).as("keys of messages_%s.properties missing from messages.properties", language).isEmpty();
        }
    }

    private static final Pattern ARGUMENT = Pattern.compile("\\{\\d+\\}");
    private static final Pattern LONE_APOSTROPHE = Pattern.compile("(?<!')'(?!')");

    /** A text with arguments goes through MessageFormat, where a lone apostrophe would swallow what follows. */
    @Test
    void textsAreNotEmptyAndTheirApostrophesAreDoubledWhereMessageFormatReadsThem() throws IOException {
        for (String file : new String[] { "messages.properties", "messages_en.properties" }) {
            Properties texts = load(file);
            for (String key : texts.stringPropertyNames()) {
                String text = texts.getProperty(key);
                assertThat(text).as("%s in %s", key, file).isNotBlank();
                if (ARGUMENT.matcher(text).find()) {
                    assertThat(LONE_APOSTROPHE.matcher(text).find()).as("lone ' in %s of %s (write '')", key, file)
                            .isFalse();
                }
            }
        }
    }

    /** The same arguments in both languages: a translation cannot drop or invent one. */
    @Test
    void everyTranslationHasTheSameArguments() throws IOException {
        Properties spanish = load("messages.properties");
        Properties english = load("messages_en.properties");
        for (String key : spanish.stringPropertyNames()) {
            assertThat(arguments(english.getProperty(key))).as(key).isEqualTo(arguments(spanish.getProperty(key)));
        }
    }

    private static Set<String> arguments(String text) {
        Set<String> found = new TreeSet<>();
        if (text != null) {
            ARGUMENT.matcher(text).results().forEach(r -> found.add(r.group()));
        }
        return found;
    }

    @Test
    void aNoticeIsShownInThePagesLanguageWithItsVaryingParts() throws IOException {
        StaticMessageSource source = new StaticMessageSource();
        Properties english = load("messages_en.properties");
        english.stringPropertyNames().forEach(k -> source.addMessage(k, Locale.ENGLISH, english.getProperty(k)));
        PageMessages pages = new PageMessages(source);

        assertThat(pages.translate("Token revocado.", Locale.ENGLISH)).isEqualTo("Token revoked.");
        assertThat(pages.translate("Nueva clave de firma k-2 publicada; firmará desde 2026-01-01 10:00:00 UTC.",
                Locale.ENGLISH)).isEqualTo("New signing key k-2 published; it will sign from 2026-01-01 10:00:00 UTC.");
        assertThat(pages.translate("La nueva contraseña debe tener al menos 12 caracteres", Locale.ENGLISH))
                .isEqualTo("The new password must have at least 12 characters");
        assertThat(pages.translate("Demasiados códigos incorrectos. Vuelve a intentarlo dentro de 1 minuto.",
                Locale.ENGLISH)).isEqualTo("Too many wrong codes. Try again in 1 minute.");
        assertThat(pages.translate("Un nombre cualquiera", Locale.ENGLISH)).isEqualTo("Un nombre cualquiera");
    }

    /** Every error page's words (web/ErrorPages, which the JSON errors share) have their English. */
    @Test
    void everyErrorPageMessageIsTranslated() throws IOException {
        StaticMessageSource source = new StaticMessageSource();
        Properties english = load("messages_en.properties");
        english.stringPropertyNames().forEach(k -> source.addMessage(k, Locale.ENGLISH, english.getProperty(k)));
        PageMessages pages = new PageMessages(source);
        for (org.springframework.http.HttpStatus status : org.springframework.http.HttpStatus.values()) {
            if (status.is4xxClientError() || status.is5xxServerError()) {
                String spanish = ErrorPages.message(status);
                assertThat(pages.translate(spanish, Locale.ENGLISH)).as(spanish).isNotEqualTo(spanish);
            }
        }
        assertThat(pages.translate(ErrorPages.BUSY, Locale.ENGLISH)).isNotEqualTo(ErrorPages.BUSY);
    }
}
