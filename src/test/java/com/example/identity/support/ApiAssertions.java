package com.example.identity.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Assertions on the {@code /api/*} contract: the exact error body, status and content type. */
public final class ApiAssertions {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private ApiAssertions() {
    }

    public static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** {@code {"ok":false,"error":"..."}} exactly, with the JSON content type. */
    public static void assertApiError(HttpResponse<String> response, int status, String error) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.headers().firstValue("Content-Disposition")).as("a JSON answer, not a download").isEmpty();
        JsonNode body = json(response);
        assertThat(body.propertyNames()).containsExactly("ok", "error");
        assertThat(body.get("ok").isBoolean()).isTrue();
        assertThat(body.get("ok").asBoolean()).isFalse();
        assertThat(body.get("error").asString()).isEqualTo(error);
    }
}
