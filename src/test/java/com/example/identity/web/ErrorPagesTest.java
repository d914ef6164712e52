package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.servlet.RequestDispatcher;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.ModelAndView;

import tools.jackson.databind.json.JsonMapper;

/**
 * 503 (a full password-hashing queue) on the error dispatch: the endpoint's own JSON shape with the Spanish
 * "try again", and no request id, because nothing failed.
 */
class ErrorPagesTest {

    ModelAndView errorFor(String path, int status) {
        var request = new MockHttpServletRequest("POST", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
        request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, path);
        return (ModelAndView) new ErrorPages(JsonMapper.builder().build()).error(request);
    }

    String render(ModelAndView view) throws Exception {
        var response = new MockHttpServletResponse();
        view.getView().render(Map.of(), new MockHttpServletRequest(), response);
        assertThat(response.getContentType()).isEqualTo("application/json;charset=UTF-8");
        assertThat(response.getHeader("Cache-Control")).isEqualTo("no-store");
        return response.getContentAsString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void serviceUnavailableIsTryAgainInEachShapeWithoutARequestId() throws Exception {
        String busy = "Hay demasiados inicios de sesión a la vez. Inténtalo de nuevo en unos segundos.";
        var api = errorFor("/api/tokens/create.php", 503);
        assertThat(api.getStatus().value()).isEqualTo(503);
        assertThat(render(api)).isEqualTo("{\"ok\":false,\"error\":\"" + busy + "\"}");

        var oauth = errorFor("/oauth/token.php", 503);
        assertThat(render(oauth)).isEqualTo("{\"error\":\"" + busy + "\"}");

        var page = errorFor("/login/", 503);
        assertThat(page.getViewName()).isEqualTo("error");
        assertThat(page.getModel()).containsEntry("message", busy).containsEntry("requestId", null);
    }

    @Test
    void aGenuineInternalFailureStillCarriesItsRequestId() throws Exception {
        assertThat(render(errorFor("/api/tokens/create.php", 500)))
                .startsWith("{\"ok\":false,\"error\":\"Error interno en el servidor\",\"detail\":");
    }
}
