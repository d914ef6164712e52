package com.example.identity.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.Endpoints;
import com.example.identity.common.JsonContent;

/**
 * Every error that reaches the servlet container's error dispatch (unknown paths, wrong methods,
 * malformed requests, uncaught failures) answers in the shape of the endpoint that was asked: JSON
 * {@code {"ok":false,"error":...}} under {@code /api/}, JSON {@code {"error":...}} for the token endpoint,
 * the JWKS and discovery, a Spanish page elsewhere (the authorization endpoint included). Never a stack trace, an exception name or a Whitelabel page; a 500 carries
 * only a request id that the log line of the failure carries too.
 */
@Controller
class ErrorPages implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ErrorPages.class);

    private final JsonMapper json;

    ErrorPages(JsonMapper json) {
        this.json = json;
    }

    @RequestMapping(Endpoints.ERROR)
    Object error(HttpServletRequest request) {
        HttpStatus status = status(request);
        String path = String.valueOf(request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI));
        String requestId = RequestId.of(request);
        boolean internal = status.is5xxServerError() && status != HttpStatus.SERVICE_UNAVAILABLE;
        if (internal) {
            Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
            log.error("Request failed with {} (request id {})", status.value(), requestId,
                    failure instanceof Throwable t ? t : null);
        }
        String message = message(status);
        if (path.startsWith(Endpoints.API_PREFIX)) {
            return json(status, internal
                    ? Map.of("ok", false, "error", message, "detail", detail(requestId))
                    : Map.of("ok", false, "error", message));
        }
        if (Endpoints.isOAuthJson(path)) {
            return json(status, internal
                    ? Map.of("error", message, "detail", detail(requestId))
                    : Map.of("error", message));
        }
        var page = new ModelAndView(status == HttpStatus.FORBIDDEN ? "error/403"
                : status == HttpStatus.NOT_FOUND ? "error/404" : "error", status);
        page.addObject("status", status.value());
        page.addObject("message", message);
        page.addObject("requestId", internal ? requestId : null);
        return page;
    }

    /**
     * The JSON error as a view rather than a response body: a body written by Spring MVC's message
     * converters on the error dispatch of a {@code .php} path would get its reflected-file-download guard,
     * {@code Content-Disposition: inline;filename=f.txt}, which no endpoint of the contract sends.
     */
    private ModelAndView json(HttpStatus status, Map<String, Object> body) {
        // ok/error first, as the documented bodies read
        var ordered = new LinkedHashMap<String, Object>();
        for (String key : new String[] { "ok", "error", "detail" }) {
            if (body.containsKey(key)) {
                ordered.put(key, body.get(key));
            }
        }
        var view = new ModelAndView(new JsonView(json.writeValueAsBytes(ordered)));
        view.setStatus(status);
        return view;
    }

    /** Writes fixed JSON bytes with the contract's content type and {@code Cache-Control: no-store}. */
    private record JsonView(byte[] body) implements View {

        @Override
        public String getContentType() {
            return JsonContent.TYPE;
        }

        @Override
        public void render(Map<String, ?> model, HttpServletRequest request, HttpServletResponse response)
                throws IOException {
            response.setContentType(JsonContent.TYPE);
            response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }

    /** 503: only ever answered when too many password hashes wait (account/PasswordHashingBusy). */
    static final String BUSY = "Hay demasiados inicios de sesión a la vez. Inténtalo de nuevo en unos segundos.";

    static String detail(String requestId) {
        return "Fallo interno al procesar la solicitud; id de solicitud " + requestId;
    }

    private static HttpStatus status(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer i ? HttpStatus.resolve(i) : null;
        return status == null ? HttpStatus.INTERNAL_SERVER_ERROR : status;
    }

    static String message(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> "Solicitud inválida";
            case UNAUTHORIZED -> "No autorizado";
            case FORBIDDEN -> "Permiso denegado";
            case NOT_FOUND -> "Recurso no encontrado";
            case METHOD_NOT_ALLOWED -> "Método no permitido";
            case NOT_ACCEPTABLE -> "Formato de respuesta no disponible";
            case PAYLOAD_TOO_LARGE -> "Solicitud demasiado grande";
            case URI_TOO_LONG -> "Dirección demasiado larga";
            case UNSUPPORTED_MEDIA_TYPE -> "Tipo de contenido no admitido";
            case TOO_MANY_REQUESTS -> "Demasiadas solicitudes, inténtalo más tarde";
            case REQUEST_HEADER_FIELDS_TOO_LARGE -> "Cabeceras demasiado grandes";
            case SERVICE_UNAVAILABLE -> BUSY;
            default -> status.is5xxServerError() ? "Error interno en el servidor" : "Solicitud inválida";
        };
    }
}
