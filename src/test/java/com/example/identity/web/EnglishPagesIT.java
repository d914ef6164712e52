package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.util.HtmlUtils;

import com.example.identity.account.AccountService;
import com.example.identity.client.ClientService;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/**
 * Every page a person sees in English is English (decisions §22): the pages of a visitor, a user, a developer and
 * an admin, empty and with their forms filled and their tables full, are read as a person reads them (the text,
 * and the placeholders, titles, labels and confirmations the browser shows) and fail on any text of the Spanish
 * message file that the English one words differently, and on Spanish letters ({@code á}, {@code ñ}, {@code ¿}...)
 * outside what people typed. Allowed as they are: the JSON contract's own values (its error strings, the scopes
 * {@code perfil} and {@code gestion} the API takes, its paths and field names).
 */
@IntegrationTest
class EnglishPagesIT {

    /** The contract's values a page may show in English too: they are what the API takes and answers, byte for byte. */
    static final Set<String> CONTRACT = Set.of("perfil", "gestion", "Permiso denegado", "Token inválido o revocado",
            "Falta token Bearer", "Código de autorización inválido", "client_id inválido", "grant_type inválido",
            "Faltan parámetros obligatorios", "Servicio no disponible", "primer_nombre", "correo", "rol");

    static final Pattern SPANISH_LETTERS = Pattern.compile("[áéíóúñÁÉÍÓÚÑ¿¡]");

    /** Spanish words that no English sentence of these pages holds, for Spanish text the message files do not have. */
    static final Pattern SPANISH_WORDS = Pattern.compile("(?<![\\p{L}\\p{N}_.-])(de|del|el|la|las|los|para|con|sin|una|que|por|"
            + "usuario|cuenta|firma|mano|caducidad|contraseña|correo|aplicación|llave)(?![\\p{L}\\p{N}_.-])");

    /** Spanish texts that English words differently, longest first (a text inside a longer one is found once). */
    static List<String> spanish;
    static List<Pattern> spanishWords;

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ClientService clients;

    @BeforeAll
    static void spanishTexts() throws IOException {
        Properties es = load("messages.properties");
        Properties en = load("messages_en.properties");
        List<String> texts = new ArrayList<>();
        for (String key : es.stringPropertyNames()) {
            String value = es.getProperty(key).replace("''", "'");
            if (value.equals(en.getProperty(key, "").replace("''", "'"))) {
                continue; // the same in both ("Token", "Webhooks")
            }
            for (String piece : value.split("\\{\\d+[^}]*\\}")) {
                String text = piece.strip();
                // a piece of a sentence around a value, or a word: long enough to be Spanish text, not a name
                if (text.length() >= 5 && !CONTRACT.contains(text) && !text.matches("[A-Za-z0-9_./:#?=&{}-]+")) {
                    texts.add(text);
                }
            }
        }
        texts.sort(Comparator.comparingInt(String::length).reversed());
        spanish = texts;
        // whole words only: "firma" is Spanish, "confirmation" is not
        spanishWords = texts.stream().map(t -> Pattern.compile(
                (Character.isLetterOrDigit(t.charAt(0)) ? "(?<![\\p{L}\\p{N}_])" : "") + Pattern.quote(t)
                        + (Character.isLetterOrDigit(t.charAt(t.length() - 1)) ? "(?![\\p{L}\\p{N}_])" : "")))
                .toList();
    }

    static Properties load(String name) throws IOException {
        Properties properties = new Properties();
        try (Reader in = new InputStreamReader(new ClassPathResource(name).getInputStream(), StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        return properties;
    }

    @Test
    void aVisitorsPagesAreEnglish() {
        var web = english();
        Map<String, HttpResponse<String>> pages = new LinkedHashMap<>();
        for (String path : List.of("/login/", "/login/recuperar", "/registro", "/login/restablecer?token=" + "x".repeat(43),
                "/login/restablecer?token=3Dbroken", "/registro/confirmar?token=" + "y".repeat(43), "/no-such-page",
                "/documentacion/api", "/login/?error", "/login/?logout", "/tutor/consentir?token=" + "z".repeat(43))) {
            pages.put("GET " + path, shown(web, web.get(path)));
        }
        String csrf = web.csrfFrom("/registro");
        pages.put("POST /registro (errors)", shown(web, web.postForm("/registro", Map.of("correo", "not an address", "primer_nombre",
                "", "password", "short", "_csrf", csrf))));
        // a child's sign-up: the form asks the parent's address (decisions §27)
        pages.put("POST /registro (a child's)", shown(web, web.postForm("/registro", Map.of("correo", "child-" + UUID.randomUUID()
                + "@example.com", "primer_nombre", "Kim", "password", "a-long-enough-password-1", "fecha_nacimiento",
                java.time.LocalDate.now().minusYears(12).toString(), "_csrf", web.csrfFrom("/registro")))));
        pages.put("POST /registro", shown(web, web.postForm("/registro", Map.of("correo", "new-" + UUID.randomUUID() + "@example.com",
                "primer_nombre", "Eve", "password", "a-long-enough-password-1", "fecha_nacimiento", "1990-05-17", "_csrf",
                web.csrfFrom("/registro")))));
        pages.put("POST /login/recuperar", shown(web, web.postForm("/login/recuperar", Map.of("correo", "nobody@example.com",
                "_csrf", web.csrfFrom("/login/recuperar")))));
        pages.put("POST /login/recuperar (error)", shown(web, web.postForm("/login/recuperar", Map.of("correo", "x",
                "_csrf", web.csrfFrom("/login/recuperar")))));
        assertEnglish(pages);
    }

    @Test
    void aUsersPagesAreEnglish() {
        var web = loggedIn(Role.USER);
        Map<String, HttpResponse<String>> pages = new LinkedHashMap<>();
        for (String path : List.of("/", "/cuenta/", "/cuenta/contrasena", "/cuenta/seguridad", "/cuenta/seguridad/totp",
                "/cuenta/aplicaciones", "/cuenta/eliminar", "/activar", "/dashboard/developer.php")) {
            pages.put("GET " + path, web.get(path));
        }
        pages.put("POST /cuenta/nombre (error)", shown(web, web.postForm("/cuenta/nombre", Map.of("primer_nombre", "",
                "_csrf", web.csrfFrom("/cuenta/")))));
        pages.put("POST /cuenta/correo (error)", shown(web, web.postForm("/cuenta/correo", Map.of("correo", "not an address",
                "contrasena", "wrong", "_csrf", web.csrfFrom("/cuenta/")))));
        pages.put("POST /cuenta/contrasena (error)", shown(web, web.postForm("/cuenta/contrasena", Map.of("actual", "wrong",
                "nueva", "a-long-enough-password-2", "repetida", "another-password-3", "_csrf",
                web.csrfFrom("/cuenta/contrasena")))));
        pages.put("POST /activar (error)", shown(web, web.postForm("/activar", Map.of("user_code", "WXYZ-WXYZ",
                "_csrf", web.csrfFrom("/activar")))));
        assertEnglish(pages);
    }

    @Test
    void aDevelopersPagesAreEnglishWithTheirTablesFull() {
        var web = loggedIn(Role.DEVELOPER_API);
        Map<String, HttpResponse<String>> pages = new LinkedHashMap<>();
        pages.put("POST /dashboard/tokens/create perfil", shown(web, web.postForm("/dashboard/tokens/create", Map.of("name",
                "game", "scope", "perfil", "_csrf", web.csrfFrom("/dashboard/developer.php")))));
        pages.put("POST /dashboard/tokens/create gestion", shown(web, web.postForm("/dashboard/tokens/create", Map.of("name",
                "ci", "scope", "gestion", "_csrf", web.csrfFrom("/dashboard/developer.php")))));
        for (String type : List.of("web", "nativa", "dispositivo", "servidor")) {
            Map<String, String> form = new LinkedHashMap<>(Map.of("name", "App " + type, "type", type,
                    "_csrf", web.csrfFrom("/dashboard/developer.php")));
            if (!type.equals("dispositivo") && !type.equals("servidor")) {
                form.put("redirect_uri", type.equals("web") ? "https://app.example.com/cb" : "http://127.0.0.1/cb");
            }
            if (type.equals("web")) {
                form.put("webhook_url", "http://127.0.0.1:9/hooks");
                form.put("post_logout_redirect_uris", "https://app.example.com/bye");
            }
            pages.put("POST /dashboard/clients/create " + type, shown(web, web.postForm("/dashboard/clients/create", form)));
        }
        pages.put("POST /dashboard/clients/create (errors)", shown(web, web.postForm("/dashboard/clients/create", Map.of("name", "",
                "redirect_uri", "not a uri", "_csrf", web.csrfFrom("/dashboard/developer.php")))));
        pages.put("GET /dashboard/developer.php (after the errors)", web.get("/dashboard/developer.php"));
        pages.put("GET /dashboard/developer.php", web.get("/dashboard/developer.php"));
        assertEnglish(pages);
    }

    @Test
    void anAdminsPagesAreEnglishWithTheirTablesFull() {
        var web = loggedIn(Role.ADMIN);
        Map<String, HttpResponse<String>> pages = new LinkedHashMap<>();
        pages.put("POST /dashboard/tokens/create", shown(web, web.postForm("/dashboard/tokens/create", Map.of("name", "admin-ci",
                "scope", "gestion", "_csrf", web.csrfFrom("/dashboard/developer.php")))));
        pages.put("POST /dashboard/admin/users/create", shown(web, web.postForm("/dashboard/admin/users/create", Map.of(
                "primer_nombre", "New", "correo", "created-" + UUID.randomUUID() + "@example.com", "rol", "developer_api",
                "_csrf", web.csrfFrom("/dashboard/admin.php")))));
        pages.put("POST /dashboard/admin/users/create (error)", shown(web, web.postForm("/dashboard/admin/users/create", Map.of(
                "primer_nombre", "", "correo", "x", "rol", "user", "_csrf", web.csrfFrom("/dashboard/admin.php")))));
        pages.put("GET /dashboard/admin.php (after the error)", web.get("/dashboard/admin.php"));
        // D50: an admin dates an account; a child's date without the parent's address is refused
        String dated = Long.toString(accounts.create("Dated", "dated-" + UUID.randomUUID() + "@example.com",
                "a-password-for-tests", Role.USER).getId());
        String child = java.time.LocalDate.now().minusYears(10).toString();
        pages.put("POST /dashboard/admin/users/birth-date (error)", shown(web, web.postForm("/dashboard/admin/users/birth-date",
                Map.of("id", dated, "fecha_nacimiento", child, "_csrf", web.csrfFrom("/dashboard/admin.php")))));
        pages.put("POST /dashboard/admin/users/birth-date", shown(web, web.postForm("/dashboard/admin/users/birth-date",
                Map.of("id", dated, "fecha_nacimiento", "1990-05-05", "_csrf", web.csrfFrom("/dashboard/admin.php")))));
        pages.put("GET /dashboard/admin.php", web.get("/dashboard/admin.php"));
        pages.put("GET /dashboard/admin/audit.php", web.get("/dashboard/admin/audit.php"));
        pages.put("GET /dashboard/developer.php", web.get("/dashboard/developer.php"));
        assertEnglish(pages);
    }

    /**
     * Decisions §26: the sanctions page of a game's owner and of an admin, empty, with a refused form and with a
     * sanction placed, and the login page that tells a suspended person why and until when.
     */
    @Test
    void theSanctionsPagesAndTheSuspensionNoticeAreEnglish() {
        String ownerEmail = "english-" + UUID.randomUUID() + "@example.com";
        long owner = accounts.create("Sam", ownerEmail, "a-long-enough-password-1", Role.DEVELOPER_API).getId();
        var game = clients.register(owner, "Racing", "https://racing.example/cb");
        String playerEmail = "english-" + UUID.randomUUID() + "@example.com";
        long player = accounts.create("Pat", playerEmail, "a-long-enough-password-1", Role.USER).getId();
        var web = english();
        assertThat(WebClient.location(web.login(ownerEmail, "a-long-enough-password-1"))).doesNotContain("error");
        Map<String, HttpResponse<String>> pages = new LinkedHashMap<>();
        pages.put("GET /dashboard/sanciones", web.get("/dashboard/sanciones"));
        pages.put("POST /dashboard/sanciones/crear (errors)", shown(web, web.postForm("/dashboard/sanciones/crear", Map.of(
                "usuario_id", "", "motivo", "", "duracion", "fecha", "hasta", "x", "_csrf", web.csrfFrom("/dashboard/sanciones")))));
        pages.put("POST /dashboard/sanciones/crear (date)", shown(web, web.postForm("/dashboard/sanciones/crear", Map.of(
                "usuario_id", Long.toString(player), "client_id", game.clientId(), "motivo", "Cheating", "duracion", "fecha",
                "hasta", "x", "_csrf", web.csrfFrom("/dashboard/sanciones")))));
        pages.put("POST /dashboard/sanciones/crear", shown(web, web.postForm("/dashboard/sanciones/crear", Map.of(
                "usuario_id", Long.toString(player), "client_id", game.clientId(), "motivo", "Cheating", "duracion", "P7D",
                "_csrf", web.csrfFrom("/dashboard/sanciones")))));
        pages.put("GET /dashboard/developer.php", web.get("/dashboard/developer.php"));
        var admin = loggedIn(Role.ADMIN);
        pages.put("GET /dashboard/sanciones (admin)", admin.get("/dashboard/sanciones"));
        pages.put("POST /dashboard/sanciones/crear (admin)", shown(admin, admin.postForm("/dashboard/sanciones/crear",
                Map.of("usuario_id", Long.toString(player), "client_id", "", "motivo", "Harassment", "duracion", "permanente",
                        "_csrf", admin.csrfFrom("/dashboard/sanciones")))));
        var suspended = english();
        pages.put("GET /login/?suspendida=1", shown(suspended, suspended.login(playerEmail, "a-long-enough-password-1")));
        assertThat(pages.get("GET /login/?suspendida=1").body()).contains("Your account is suspended permanently.");
        assertEnglish(pages);
    }

    /** The page a browser ends on: {@code answer}, or where its redirects lead (a form's errors come back by one). */
    static HttpResponse<String> shown(WebClient web, HttpResponse<String> answer) {
        HttpResponse<String> page = answer;
        for (int i = 0; i < 3 && page.statusCode() == 302; i++) {
            var location = java.net.URI.create(web.base()).resolve(WebClient.location(page));
            page = web.get(location.getRawPath() + (location.getRawQuery() == null ? "" : "?" + location.getRawQuery()));
        }
        return page;
    }

    private WebClient english() {
        var web = new WebClient(port);
        web.get("/login/?lang=en");
        return web;
    }

    private WebClient loggedIn(Role role) {
        String email = "english-" + UUID.randomUUID() + "@example.com";
        accounts.create("Sam", email, "a-long-enough-password-1", role);
        var web = english();
        assertThat(WebClient.location(web.login(email, "a-long-enough-password-1"))).doesNotContain("error");
        return web;
    }

    private void assertEnglish(Map<String, HttpResponse<String>> pages) {
        List<String> typed = typedByPeople();
        List<String> found = new ArrayList<>();
        pages.forEach((name, page) -> {
            HttpResponse<String> shown = page;
            assertThat(shown.body()).as(name).contains("<html lang=\"en\"");
            String text = visibleText(shown.body());
            for (String data : typed) {
                text = text.replaceAll("(?<![\\p{L}\\p{N}_])" + Pattern.quote(data) + "(?![\\p{L}\\p{N}_])", " ");
            }
            for (String contract : CONTRACT) {
                text = text.replace(contract, " ");
            }
            for (int i = 0; i < spanish.size(); i++) {
                Matcher m = spanishWords.get(i).matcher(text);
                if (m.find()) {
                    found.add(name + ": \"" + spanish.get(i) + "\"");
                    text = m.replaceAll(" ");
                }
            }
            Matcher words = SPANISH_WORDS.matcher(text);
            while (words.find()) {
                int from = Math.max(0, words.start() - 30);
                int to = Math.min(text.length(), words.end() + 30);
                found.add(name + ": Spanish word \"" + words.group() + "\" in \"" + text.substring(from, to).strip() + "\"");
            }
            Matcher letters = SPANISH_LETTERS.matcher(text);
            while (letters.find()) {
                int from = Math.max(0, letters.start() - 30);
                int to = Math.min(text.length(), letters.end() + 30);
                found.add(name + ": Spanish letter in \"" + text.substring(from, to).strip() + "\"");
            }
        });
        assertThat(found).as("Spanish on English pages").isEmpty();
    }

    /** What people typed that pages show as it is: names of accounts, applications and tokens. */
    private List<String> typedByPeople() {
        List<String> typed = new ArrayList<>();
        typed.addAll(jdbc.queryForList("select primer_nombre from users", String.class));
        typed.addAll(jdbc.queryForList("select name from oauth_clients", String.class));
        typed.addAll(jdbc.queryForList("select name from api_tokens", String.class));
        // a sanction's reason (decisions §26) is typed by whoever placed it, shown on the sanctions and audit pages
        typed.addAll(jdbc.queryForList("select motivo from sanctions", String.class));
        // and a passkey's name, shown on the audit page («Móvil», named by another test)
        typed.addAll(jdbc.queryForList("select label from user_credentials", String.class));
        typed.removeIf(t -> t == null || t.isBlank());
        typed.sort(Comparator.comparingInt(String::length).reversed());
        return typed;
    }

    /** Not read as the page's text: scripts, styles, comments, and the switch to Spanish, which reads "Español". */
    static final Pattern HIDDEN = Pattern.compile(
            "(?is)<script\\b.*?</script>|<style\\b.*?</style>|<!--.*?-->|<a id=\"language-switch\".*?</a>");
    static final Pattern SHOWN_ATTRIBUTE = Pattern.compile(
            "(?i)\\s(?:placeholder|title|aria-label|alt|data-confirm|data-copied)=\"([^\"]*)\"");
    static final Pattern TAG = Pattern.compile("(?s)<[^>]*>");

    /** The text a person reads: the page's text, and the attributes a browser shows (placeholders, titles, dialogs). */
    static String visibleText(String html) {
        String withoutHidden = HIDDEN.matcher(html).replaceAll(" ");
        StringBuilder text = new StringBuilder();
        Matcher attributes = SHOWN_ATTRIBUTE.matcher(withoutHidden);
        while (attributes.find()) {
            text.append(attributes.group(1)).append('\n');
        }
        text.append(TAG.matcher(withoutHidden).replaceAll(" "));
        return HtmlUtils.htmlUnescape(text.toString()).replaceAll("[ \\t\\x0B\\f\\r]+", " ");
    }
}
