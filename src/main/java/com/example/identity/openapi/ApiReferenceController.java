package com.example.identity.openapi;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.webjars.WebJarVersionLocator;

import com.example.identity.Endpoints;

/**
 * {@code /documentacion/api}: the reference of the JSON routes, Swagger UI reading {@code /api/openapi.json}.
 * Swagger UI's files come from its registry package (the {@code org.webjars:swagger-ui} jar, served under
 * {@code /webjars/}), never from a CDN; the page's one script of its own is {@code /js/api-reference.js}, so
 * the pages' Content-Security-Policy (web/PagePolicy: scripts and styles of this origin only) holds. Public,
 * like the document.
 */
@Controller
class ApiReferenceController {

    private final String swaggerUi;

    ApiReferenceController() {
        String version = new WebJarVersionLocator().version("swagger-ui");
        if (version == null) {
            throw new IllegalStateException("the swagger-ui webjar is missing from the classpath");
        }
        this.swaggerUi = "/webjars/swagger-ui/" + version;
    }

    @GetMapping(Endpoints.API_REFERENCE)
    String reference(Model model) {
        model.addAttribute("swaggerUi", swaggerUi);
        model.addAttribute("document", Endpoints.API_OPENAPI);
        return "openapi/reference";
    }
}
