package com.example.identity.openapi;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

/**
 * Small builders of OpenAPI 3.1 pieces, so that the route tables ({@link ApiRoutes}, {@link OAuthRoutes}) read
 * as tables: a form field, a query parameter, an error answer with its exact Spanish body as an example.
 */
final class Docs {

    static final String JSON = "application/json";
    static final String FORM = "application/x-www-form-urlencoded";
    static final String HTML = "text/html";

    private Docs() {
    }

    /** A JSON Schema 2020-12 schema of one type ({@code string}, {@code integer}, {@code boolean}, {@code object}). */
    static Schema<Object> type(String type) {
        return new JsonSchema().types(new LinkedHashSet<>(Set.of(type)));
    }

    /** A form field: name, type, whether it is required, a description. */
    record Field(String name, String type, boolean required, String description) {
    }

    static Field field(String name, String description) {
        return new Field(name, "string", false, description);
    }

    static Field required(String name, String description) {
        return new Field(name, "string", true, description);
    }

    /** A form body of these fields. */
    static RequestBody form(List<Field> fields) {
        Schema<Object> body = type("object");
        Map<String, Schema> properties = new LinkedHashMap<>();
        List<String> required = new java.util.ArrayList<>();
        for (Field f : fields) {
            properties.put(f.name(), type(f.type()).description(f.description()));
            if (f.required()) {
                required.add(f.name());
            }
        }
        body.setProperties(properties);
        if (!required.isEmpty()) {
            body.setRequired(required);
        }
        return new RequestBody().required(!required.isEmpty()).content(new Content().addMediaType(FORM, new MediaType().schema(body)));
    }

    /** Query parameters of these fields. */
    static void query(Operation operation, List<Field> fields) {
        for (Field f : fields) {
            operation.addParametersItem(new Parameter().in("query").name(f.name()).required(f.required())
                    .description(f.description()).schema(type(f.type())));
        }
    }

    /**
     * Adds to {@code responses} the answer {@code status} with one more example: {@code body} exactly as the
     * service writes it ({@code {"ok":false,"error":"..."}} under /api/, {@code {"error":...}} under /oauth/).
     */
    static void error(ApiResponses responses, String status, String description, Map<String, Object> body) {
        ApiResponse response = responses.computeIfAbsent(status, s -> new ApiResponse().description(description));
        if (response.getContent() == null || response.getContent().get(JSON) == null) {
            response.content(new Content().addMediaType(JSON, new MediaType().schema(type("object"))));
        }
        MediaType json = response.getContent().get(JSON);
        String name = "e" + ((json.getExamples() == null ? 0 : json.getExamples().size()) + 1);
        json.addExamples(name, new Example().summary(String.valueOf(body.getOrDefault("error", description))).value(body));
    }

    /** {@code {"ok":false,"error":"<error>"}}, the /api/ routes' refusal. */
    static void apiError(ApiResponses responses, String status, String error) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ok", false);
        body.put("error", error);
        error(responses, status, error, body);
    }

    /** An HTML page (the pages of the authorization and logout endpoints). */
    static ApiResponse page(String description) {
        return new ApiResponse().description(description)
                .content(new Content().addMediaType(HTML, new MediaType().schema(type("string"))));
    }

    /** A JSON answer whose schema is an object (the standard documents of OAuth and OpenID Connect). */
    static ApiResponse json(String description) {
        return new ApiResponse().description(description)
                .content(new Content().addMediaType(JSON, new MediaType().schema(type("object"))));
    }
}
