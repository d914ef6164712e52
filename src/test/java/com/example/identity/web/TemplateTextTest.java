package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.attoparser.ParseException;
import org.attoparser.config.ParseConfiguration;
import org.attoparser.dom.DOMMarkupParser;
import org.attoparser.dom.Element;
import org.attoparser.dom.INestableNode;
import org.attoparser.dom.INode;
import org.attoparser.dom.Text;
import org.junit.jupiter.api.Test;

/**
 * No template holds a user-facing text outside the message files (docs/languages.md): every text node with a
 * letter, and every {@code placeholder}, {@code title}, {@code alt}, {@code aria-label}, {@code label},
 * {@code data-confirm} and displayed {@code value}, comes from {@code #{...}} or {@code ${...}}. Exempt: what an
 * expression replaces (the children of {@code th:text}, {@code th:utext}, {@code th:replace}, {@code th:insert}
 * are a prototype, except a page's {@code <html>}, which passes its title and section to the layout), code ({@code <code>}, {@code <pre>}, {@code <script>}: commands, parameters, URLs), and
 * {@link #ALLOWED}, the words that are the same in every language.
 */
class TemplateTextTest {

    static final Path TEMPLATES = Path.of("src/main/resources/templates");

    /** The language switch's own labels (each in its language), and names: protocol fields, paths, libraries. */
    static final Set<String> ALLOWED = Set.of("English", "Español", "client_id", "client_id:", "client_secret:",
            "redirect_uri", "post_logout_redirect_uri", "kid", "openapi.json", "/oauth/jwks.json", "XXXX-XXXX",
            "openid-client", "Authlib", ", Flask):", "(RS256,");

    private static final Set<String> REPLACING = Set.of("th:text", "th:utext", "th:replace", "th:insert");
    private static final Set<String> CODE = Set.of("code", "pre", "script", "style");
    private static final Set<String> SHOWN = Set.of("placeholder", "title", "alt", "aria-label", "label", "data-confirm");

    @Test
    void everyTextComesFromTheMessages() throws IOException {
        List<String> literals = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TEMPLATES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".html")).sorted().toList()) {
                try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    var document = new DOMMarkupParser(ParseConfiguration.htmlConfiguration()).parse(file.toString(), reader);
                    visit(document, TEMPLATES.relativize(file).toString(), literals);
                }
                catch (ParseException e) {
                    throw new IllegalStateException(file + ": " + e.getMessage(), e);
                }
            }
        }
        assertThat(literals).as("texts outside messages*.properties (use #{...})").isEmpty();
    }

    private static void visit(INestableNode parent, String file, List<String> literals) {
        for (INode node : parent.getChildren()) {
            if (node instanceof Text text) {
                String words = text.getContent().replaceAll("\\[\\[.*?]]", "").strip();
                if (words.codePoints().anyMatch(Character::isLetter) && !ALLOWED.contains(words)) {
                    literals.add(file + ": text \"" + words.replaceAll("\\s+", " ") + "\"");
                }
            }
            else if (node instanceof Element element) {
                String name = element.getElementName().toLowerCase();
                element.getAttributeMap().forEach((attribute, value) -> {
                    boolean displayedValue = attribute.equals("value") && name.equals("input")
                            && Set.of("submit", "button", "reset").contains(element.getAttributeValue("type"));
                    if ((SHOWN.contains(attribute) || displayedValue) && value != null
                            && value.codePoints().anyMatch(Character::isLetter) && !ALLOWED.contains(value)) {
                        literals.add(file + ": <" + name + " " + attribute + "=\"" + value + "\">");
                    }
                });
                // a page's <html th:replace="layout(~{::title}, ~{::section})"> hands its own parts to the layout
                boolean replaced = !name.equals("html")
                        && element.getAttributeMap().keySet().stream().anyMatch(REPLACING::contains);
                if (!replaced && !CODE.contains(name)) {
                    visit(element, file, literals);
                }
            }
        }
    }
}
