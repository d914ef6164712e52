package com.example.identity.mail;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.springframework.context.MessageSource;
import org.springframework.web.util.HtmlUtils;

/**
 * One mail's words, in plain text and HTML, from the {@code mail.*} messages in one language (docs/languages.md):
 * paragraphs of sentences (a line each in the text, one {@code <p>} in the HTML), links (the address alone on its
 * line in the text, an anchor with its label in the HTML) and the signature. Everything is escaped in the HTML
 * (a name or an address there is text, never markup). The caller chooses the language: the request's, read before any work leaves the request's thread.
 */
public final class Letter {

    private final MessageSource messages;
    private final Locale locale;
    private final List<String> text = new ArrayList<>();
    private final List<String> html = new ArrayList<>();

    public Letter(MessageSource messages, Locale locale) {
        this.messages = messages;
        this.locale = locale;
    }

    /** A sentence: message {@code key} with {@code args}. */
    public record Sentence(String key, Object... args) {
    }

    public static Sentence sentence(String key, Object... args) {
        return new Sentence(key, args);
    }

    /** The message {@code key} in this letter's language, for its subject. */
    public String words(String key, Object... args) {
        return messages.getMessage(key, args, locale);
    }

    /** A paragraph of {@code sentences}. */
    public Letter paragraph(Sentence... sentences) {
        List<String> plain = new ArrayList<>();
        for (Sentence s : sentences) {
            plain.add(words(s.key(), s.args()));
        }
        text.add(String.join("\n", plain));
        html.add("<p>" + escape(String.join(" ", plain)) + "</p>");
        return this;
    }

    /** The link {@code href}: alone on its line in the text, an anchor reading message {@code labelKey} in the HTML. */
    public Letter link(String href, String labelKey) {
        text.add(href);
        html.add("<p><a href=\"" + escape(href) + "\">" + escape(words(labelKey)) + "</a></p>");
        return this;
    }

    /**
     * Several links together: in the text one line each, message {@code textKeys[i]} then the address; in the HTML
     * one paragraph of anchors reading {@code labelKeys[i]}, separated by a middle dot.
     */
    public Letter links(String[] textKeys, String[] labelKeys, String[] hrefs) {
        List<String> lines = new ArrayList<>();
        List<String> anchors = new ArrayList<>();
        for (int i = 0; i < hrefs.length; i++) {
            lines.add(words(textKeys[i]) + " " + hrefs[i]);
            anchors.add("<a href=\"" + escape(hrefs[i]) + "\">" + escape(words(labelKeys[i]))
                    + "</a>");
        }
        text.add(String.join("\n", lines));
        html.add("<p>" + String.join(" · ", anchors) + "</p>");
        return this;
    }

    /** The plain text, signed. */
    public String text() {
        return String.join("\n\n", text) + "\n\n" + words("mail.signature") + "\n";
    }

    /** The HTML document, signed. */
    public String html() {
        return "<!DOCTYPE html><html lang=\"" + locale.getLanguage() + "\"><body style=\"font-family: sans-serif\">"
                + String.join("", html) + "<p>" + escape(words("mail.signature")) + "</p></body></html>";
    }

    /** Plain text as HTML: only {@code < > & " '} escaped, the rest left in UTF-8 as the message is. */
    private static String escape(String plain) {
        return HtmlUtils.htmlEscape(plain, "UTF-8");
    }
}
