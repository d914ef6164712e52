package com.example.identity.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import com.example.identity.Endpoints;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * {@code /api/openapi.json} against the running service (decisions §23): every route the application serves under
 * {@code /api/}, {@code /oauth/} and {@code /.well-known/} is documented, derived from Spring MVC's handler mapping and
 * the {@link Endpoints} constants (the authorization server's routes are filters, no controller); and every
 * documented path and method answers a request without credentials or fields with a documented status (never 404
 * or 405) and, where the document gives exact bodies for that status, one of them.
 */
@IntegrationTest
class OpenApiDocumentIT {

    private static final Set<String> PREFIXES = Set.of("/api/", "/oauth/", "/.well-known/");

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    JsonNode document;

    @BeforeEach
    void readTheDocument() {
        HttpResponse<String> response = new WebClient(port).get(Endpoints.API_OPENAPI);
        assertThat(response.statusCode()).as("public, no login").isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        document = ApiAssertions.json(response);
        try {
            // for a reader of the build: the document as served
            java.nio.file.Files.writeString(java.nio.file.Path.of("target", "openapi.json"), response.body());
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void isOpenApi31WithTheSpanishErrorsAndSpringdocsDefaultPathIsNotServed() {
        assertThat(document.get("openapi").asString()).startsWith("3.1.");
        assertThat(document.at("/info/title").asString()).isEqualTo("Servicio de identidad");
        JsonNode missing = document.at("/paths/~1api~1usuarios~1delete.php/post/responses/404/content/application~1json/examples/e1/value");
        assertThat(missing.toString()).isEqualTo("{\"ok\":false,\"error\":\"Usuario no encontrado\"}");
        JsonNode grant = document.at("/paths/~1oauth~1token.php/post/responses/400/content/application~1json/examples/e1/value");
        assertThat(grant.toString()).isEqualTo("{\"error\":\"grant_type inválido\"}");
        assertThat(document.at("/paths/~1api~1usuarios~1create.php/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties")
                .propertyNames()).containsExactly("correo", "primer_nombre", "rol");
        assertThat(document.at("/paths/~1api~1usuarios~1list.php/get/responses/200/content/application~1json/schema").isMissingNode())
                .as("the success body is generated from the controller's record").isFalse();
        assertThat(document.at("/paths/~1api~1usuarios~1list.php/get/tags").toString()).isEqualTo("[\"usuarios (admins)\"]");
        assertThat(document.toString()).doesNotContain("-controller\"");
        // one schema per record: two records of one simple name would share (and overwrite) one schema
        assertThat(document.at("/components/schemas").propertyNames()).contains("UserCreated", "Created", "UserList");

        var admin = new WebClient(port);
        admin.login("admin@example.com", "admin-demo-password");
        assertThat(admin.get("/v3/api-docs").statusCode()).isEqualTo(404);
        assertThat(admin.get("/swagger-ui/index.html").statusCode()).isEqualTo(404);
    }

    /** Decisions §25: the token endpoint's ticket grant, its fields and its refusals. */
    @Test
    void theTokenEndpointDescribesTicketsForGameServers() {
        JsonNode token = document.at("/paths/~1oauth~1token.php/post");
        JsonNode fields = token.at("/requestBody/content/application~1x-www-form-urlencoded/schema/properties");
        assertThat(fields.propertyNames()).contains("subject_token", "subject_token_type", "audience", "requested_token_type");
        assertThat(fields.at("/grant_type/description").asString()).contains("urn:ietf:params:oauth:grant-type:token-exchange");
        assertThat(token.at("/responses/200/description").asString()).contains("\"token_type\":\"N_A\"");
        List<String> refusals = new ArrayList<>();
        token.at("/responses/400/content/application~1json/examples").valueStream()
                .forEach(example -> refusals.add(example.get("value").toString()));
        assertThat(refusals).contains("{\"error\":\"invalid_target\",\"error_description\":\"audience debe ser el client_id de "
                + "una aplicacion de tipo servidor del mismo propietario\"}", "{\"error\":\"invalid_grant\",\"error_description\":"
                + "\"subject_token invalido, caducado, revocado o de otra aplicacion\"}");
    }

    @Test
    void everyServedRouteIsDocumented() throws Exception {
        TreeMap<String, Set<String>> served = new TreeMap<>();
        mappings.getHandlerMethods().forEach((info, method) -> {
            var patterns = info.getPathPatternsCondition();
            if (patterns == null) {
                return;
            }
            for (String path : patterns.getPatternValues()) {
                if (PREFIXES.stream().anyMatch(path::startsWith)) {
                    Set<String> methods = served.computeIfAbsent(path, p -> new TreeSet<>());
                    info.getMethodsCondition().getMethods().stream().map(RequestMethod::name).forEach(methods::add);
                }
            }
        });
        for (Field field : Endpoints.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                String path = (String) field.get(null);
                // a route, not a pattern ("/**") nor a prefix ("/api/", Endpoints.API_PREFIX)
                if (PREFIXES.stream().anyMatch(path::startsWith) && !path.contains("*") && !path.endsWith("/")) {
                    served.computeIfAbsent(path, p -> new TreeSet<>());
                }
            }
        }
        assertThat(served).containsKeys(Endpoints.TOKEN, Endpoints.API_USERS_DELETE, Endpoints.API_OPENAPI);

        JsonNode paths = document.get("paths");
        List<String> undocumented = new ArrayList<>();
        served.forEach((path, methods) -> {
            JsonNode item = paths.get(path);
            if (item == null) {
                undocumented.add(path);
                return;
            }
            methods.stream().filter(m -> !m.equals("HEAD") && !m.equals("OPTIONS"))
                    .filter(m -> item.get(m.toLowerCase(Locale.ROOT)) == null)
                    .forEach(m -> undocumented.add(m + " " + path));
            if (item.propertyNames().stream().noneMatch(m -> Set.of("get", "post", "put", "delete").contains(m))) {
                undocumented.add("no method: " + path);
            }
        });
        assertThat(undocumented).isEmpty();
    }

    @Test
    void everyDocumentedRouteAnswersAsDocumented() {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (String path : document.get("paths").propertyNames()) {
            JsonNode item = document.get("paths").get(path);
            for (String method : item.propertyNames()) {
                if (!Set.of("get", "post").contains(method)) {
                    continue;
                }
                checked++;
                var request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
                if (method.equals("post")) {
                    request.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(""));
                }
                HttpResponse<String> response = new WebClient(port).send(request.build());
                String status = String.valueOf(response.statusCode());
                JsonNode documented = item.get(method).get("responses").get(status);
                String what = method.toUpperCase(Locale.ROOT) + " " + path + " -> " + status + " " + response.body();
                if (documented == null || response.statusCode() == 404 || response.statusCode() == 405) {
                    wrong.add("undocumented answer: " + what);
                    continue;
                }
                JsonNode examples = documented.at("/content/application~1json/examples");
                if (!examples.isMissingNode() && examples.size() > 0) {
                    JsonNode body = ApiAssertions.JSON.readTree(response.body());
                    if (examples.valueStream().noneMatch(e -> e.get("value").equals(body))) {
                        wrong.add("body not among the documented ones: " + what);
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(checked).isGreaterThanOrEqualTo(25);
    }

    @Test
    void theReferencePageServesSwaggerUiFromThePackageUnderThePagesPolicy() {
        var web = new WebClient(port);
        HttpResponse<String> page = web.get(Endpoints.API_REFERENCE);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(com.example.identity.web.PagePolicy.PAGES);
        var bundle = java.util.regex.Pattern.compile("src=\"(/webjars/swagger-ui/[0-9.]+/swagger-ui-bundle\\.js)\"")
                .matcher(page.body());
        assertThat(bundle.find()).as(page.body()).isTrue();
        assertThat(page.body()).contains("data-url=\"/api/openapi.json\"").doesNotContain("<script>").doesNotContain("https://");
        HttpResponse<String> script = web.get(bundle.group(1));
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type").orElse("")).contains("javascript");
        assertThat(web.get("/js/api-reference.js").statusCode()).isEqualTo(200);
    }
}
