package com.example.identity.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.MessageSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.ModelAndView;

/**
 * The page-level notices and errors in the page's language. Controllers, and the services behind them, write
 * these texts in Spanish: a service's text is also the reason an {@code /api/} body gives, which stays Spanish
 * whatever the language (decisions §22), and a notice crosses a redirect as a flash attribute. Each such text
 * is a {@code page.*} message of {@code messages.properties}, its exact Spanish words with {@code {0}}, {@code
 * {1}}... where it varies (a kid, a number of minutes); when the page is rendered in another language, the
 * text found in one of the {@link #ATTRIBUTES} is matched against them and replaced by the same message in that
 * language, the varying parts carried over. A text no message matches is shown as it is (Spanish), which
 * {@code MessagesTest} keeps from happening for the texts the controllers write.
 */
final class PageMessages implements HandlerInterceptor {

    /** The model attributes that carry a page-level notice or error (a text, or a map of field to text). */
    static final Set<String> ATTRIBUTES = Set.of("notice", "error", "errors", "userError", "listError", "tokenError",
            "clientErrors", "emailErrors", "nameError", "passwordError", "linkNotice", "federatedError", "message",
            "sent");

    private record Text(String key, Pattern spanish) {
    }

    private final MessageSource messages;
    private final List<Text> texts;

    PageMessages(MessageSource messages) {
        this.messages = messages;
        this.texts = load();
    }

    @Override
    public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler,
            ModelAndView page) {
        if (page == null || page.getViewName() == null || page.getViewName().startsWith("redirect:")) {
            return; // no page, or a View of its own (the JSON error bodies of web/ErrorPages)
        }
        Locale locale = Languages.current();
        if (locale.equals(Languages.DEFAULT)) {
            return;
        }
        Map<String, Object> model = page.getModel();
        for (String name : ATTRIBUTES) {
            Object value = model.get(name);
            if (value instanceof String text) {
                model.put(name, translate(text, locale));
            }
            else if (value instanceof Map<?, ?> fields) {
                Map<Object, Object> translated = new LinkedHashMap<>();
                fields.forEach((field, text) -> translated.put(field,
                        text instanceof String s ? translate(s, locale) : text));
                model.put(name, translated);
            }
        }
    }

    /** {@code spanish} in {@code locale}: the {@code page.*} message whose Spanish text it is, or itself. */
    String translate(String spanish, Locale locale) {
        for (Text text : texts) {
            Matcher m = text.spanish().matcher(spanish);
            if (m.matches()) {
                Object[] args = new Object[m.groupCount()];
                for (int i = 0; i < args.length; i++) {
                    args[i] = m.group(i + 1);
                }
                return messages.getMessage(text.key(), args, spanish, locale);
            }
        }
        return spanish;
    }

    /** The {@code page.*} messages of the Spanish file, each as a pattern of its exact text. */
    static List<Text> load() {
        Properties spanish;
        try {
            spanish = PropertiesLoaderUtils.loadProperties(
                    new EncodedResource(new ClassPathResource("messages.properties"), StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Text> texts = new ArrayList<>();
        spanish.stringPropertyNames().stream().filter(k -> k.startsWith("page.")).sorted().forEach(key -> {
            String[] parts = spanish.getProperty(key).replace("''", "'").split("\\{\\d+\\}", -1);
            StringBuilder regex = new StringBuilder();
            for (int i = 0; i < parts.length; i++) {
                regex.append(i > 0 ? "(.+?)" : "").append(Pattern.quote(parts[i]));
            }
            texts.add(new Text(key, Pattern.compile(regex.toString(), Pattern.DOTALL)));
        });
        return List.copyOf(texts);
    }
}
