package com.example.identity.openapi;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.info.BuildProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;

import com.example.identity.Endpoints;

/**
 * {@code /api/openapi.json} (decisions §23): springdoc-openapi generates the document from the controllers of
 * {@code /api/} and {@code /oauth/} ({@code springdoc.*} in application.yml: the path, OpenAPI 3.1, which paths);
 * this customizer adds what it cannot see: the fields and refusals of the /api/ routes ({@link ApiRoutes}), and
 * the routes that are filters of Spring Authorization Server ({@link OAuthRoutes}). The document is public (it
 * describes contracts, no data): the API chain lets anyone GET it.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfig {

    static final String SESSION = "sesion";
    static final String BEARER = "bearer";
    static final String CLIENT = "cliente";
    static final String DPOP = "dpop";

    @Bean
    OpenApiCustomizer identityRoutes(ObjectProvider<BuildProperties> build) {
        return api -> {
            api.info(new Info().title("Servicio de identidad")
                    .version(build.getIfAvailable() == null ? "dev" : build.getIfAvailable().getVersion())
                    .description("Las rutas JSON de /api/ y los endpoints OAuth 2.0 / OpenID Connect de /oauth/. "
                            + "Todas las respuestas JSON son application/json;charset=UTF-8; los errores de /api/ son "
                            + "{\"ok\":false,\"error\":\"...\"} y los de /oauth/ {\"error\":...}, en castellano. "
                            + "Referencia navegable: " + Endpoints.API_REFERENCE));
            api.components((api.getComponents() == null ? new Components() : api.getComponents())
                    .addSecuritySchemes(SESSION, new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                            .in(SecurityScheme.In.COOKIE).name("JSESSIONID")
                            .description("La sesión del navegador; los POST llevan el token CSRF (_csrf o X-CSRF-TOKEN)"))
                    .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                            .description("Un token personal (alcance perfil o gestion) o un token de acceso"))
                    .addSecuritySchemes(CLIENT, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")
                            .description("client_id y client_secret con HTTP Basic, o en el cuerpo"))
                    // decisions §28: a token bound to a key, with a proof of that key (RFC 9449 §7.1)
                    .addSecuritySchemes(DPOP, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("DPoP")
                            .description("Un token de acceso ligado a una clave (token_type DPoP): Authorization: DPoP "
                                    + "<token> y la cabecera DPoP con una prueba nueva de esa clave para esta petición "
                                    + "(htm, htu, iat, jti, ath; RFC 9449)")));
            ApiRoutes.complete(api);
            OAuthRoutes.add(api);
        };
    }
}
