package com.example.identity.openapi;

import static com.example.identity.openapi.Docs.apiError;
import static com.example.identity.openapi.Docs.field;
import static com.example.identity.openapi.Docs.required;

import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;

import com.example.identity.Endpoints;
import com.example.identity.common.ListQuery;

/**
 * What springdoc cannot see in the {@code /api/} controllers, which read their form fields from the request
 * (each field once, with the API's own refusals): the fields, who may call, and the Spanish refusals of each
 * route (decisions §1, §11, §15, §16, §23). springdoc generates the paths, methods and success bodies from the
 * controllers; this completes those operations, and fails the start when one of them has disappeared.
 */
final class ApiRoutes {

    static final String SESSION_OR_TOKEN = "Una sesión (con el token CSRF en los POST: campo _csrf o cabecera X-CSRF-TOKEN) "
            + "o un token personal de alcance gestion (Authorization: Bearer).";

    private static final List<Docs.Field> PAGING = List.of(
            field("page", "Página, desde 1 (por defecto 1, como mucho " + ListQuery.MAX_PAGE + ")"),
            field("size", "Elementos por página, de 1 a " + ListQuery.MAX_SIZE + " (por defecto " + ListQuery.DEFAULT_SIZE + ")"),
            field("q", "Búsqueda, de " + ListQuery.MIN_SEARCH + " a " + ListQuery.MAX_SEARCH + " caracteres"));

    private ApiRoutes() {
    }

    static void complete(OpenAPI api) {
        Operation userinfo = get(api, Endpoints.API_USERINFO).getGet();
        userinfo.summary("Quién juega: el dueño del token")
                .description("Authorization: Bearer <token>; un token ligado a una clave DPoP (token_type DPoP), "
                        + "Authorization: DPoP <token> con la cabecera DPoP, una prueba de esa clave (RFC 9449). Un token "
                        + "ligado enviado como Bearer, con otra clave o con una prueba repetida, caducada o de otra "
                        + "petición: 401 Token inválido o revocado, con WWW-Authenticate: DPoP error=\"invalid_dpop_proof\".")
                .addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.BEARER))
                .addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.DPOP));
        apiError(userinfo.getResponses(), "401", "Falta token Bearer");
        apiError(userinfo.getResponses(), "401", "Token inválido o revocado");
        apiError(userinfo.getResponses(), "403", "Permiso denegado");

        Operation create = post(api, Endpoints.API_CREATE_TOKEN, "Crea un token personal (se muestra una vez)",
                List.of(required("name", "Nombre del token, 1 a 100 caracteres"),
                        field("scope", "perfil (por defecto) o gestion")));
        create.getSecurity().clear();
        create.addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.SESSION));
        create.setDescription("Solo con una sesión de developer_api o admin y el token CSRF.");
        errors(create, "400", "Falta el parámetro name", "name demasiado largo", "name inválido", "Parámetro repetido: name",
                "scope inválido");

        list(api, "/api/tokens/list.php", "Tokens: los propios, o todos para un admin");
        errors(post(api, "/api/tokens/revoke.php", "Revoca un token", List.of(required("id", "id del token"))),
                "400", "Falta el parámetro id", "id inválido");
        errors(api.getPaths().get("/api/tokens/revoke.php").getPost(), "404", "Token no encontrado");

        list(api, "/api/clients/list.php", "Aplicaciones: las propias, o todas para un admin");
        errors(post(api, "/api/clients/create.php", "Registra una aplicación OAuth (el secreto se muestra una vez)",
                List.of(required("name", "Nombre, 1 a 100 caracteres"),
                        field("redirect_uri", "URI de redirección exacta (https; http solo en loopback); nativa: loopback o "
                                + "esquema privado; dispositivo y servidor: ninguna"),
                        field("type", "web (por defecto), nativa, dispositivo o servidor"),
                        field("post_logout_redirect_uri", "Repetible: direcciones a las que puede volver un cierre de sesión"),
                        field("invitados", "true: la aplicación (nativa o dispositivo) admite jugadores invitados "
                                + "(/oauth/invitado.php); false por defecto"),
                        field("webhook_url", "Webhook (https): usuario.actualizado, usuario.desactivado y usuario.eliminado "
                                + "firmados según Standard Webhooks; la respuesta trae client.webhook_secret (whsec_...) "
                                + "una sola vez"),
                        field("par_obligatorio", "true o false (por defecto): sus peticiones de autorización se envían "
                                + "antes a /oauth/par.php (PAR, RFC 9126); web y nativa"),
                        field("dpop_obligatorio", "true o false (por defecto): cada petición de tokens lleva una prueba "
                                + "DPoP y sus tokens quedan ligados a esa clave (RFC 9449); no para servidor"))),
                "400", "Falta el parámetro name", "type inválido: web, nativa, dispositivo o servidor",
                "Una aplicación de tipo dispositivo no tiene redirect_uri", "webhook_url inválido: usa https",
                "par_obligatorio inválido: true o false", "dpop_obligatorio inválido: true o false",
                "invitados inválido: true o false", "Solo las aplicaciones de tipo nativa o dispositivo admiten invitados");
        errors(post(api, "/api/clients/revoke.php", "Revoca una aplicación y sus tokens",
                List.of(required("client_id", "client_id de la aplicación"))), "400", "Falta el parámetro client_id");
        errors(api.getPaths().get("/api/clients/revoke.php").getPost(), "404", "Aplicación no encontrada");

        users(api);
        guests(api);
        sanctions(api);
        // one tag per family of routes, in place of springdoc's controller names
        api.getPaths().forEach((path, item) -> item.readOperations().forEach(op -> op.setTags(List.of(
                path.startsWith("/api/usuarios/") ? "usuarios (admins)" : path.startsWith("/api/sanciones/") ? "sanciones"
                        : path.startsWith("/api/tokens/") ? "tokens"
                        : path.startsWith("/api/clients/") ? "aplicaciones"
                        : path.startsWith("/api/invitados/") ? "invitados" : "api"))));

        // springdoc leaves its own routes out of the document
        api.getPaths().addPathItem(Endpoints.API_OPENAPI, new PathItem().get(new Operation()
                .summary("Este documento OpenAPI 3.1 (público)").addTagsItem("documentación")
                .responses(new ApiResponses().addApiResponse("200", Docs.json("El documento")))));
        api.getPaths().addPathItem(Endpoints.API_OPENAPI_YAML, new PathItem().get(new Operation()
                .summary("Este documento en YAML (público)").addTagsItem("documentación")
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("El documento en YAML")
                        .content(new Content().addMediaType("application/vnd.oai.openapi", new MediaType()
                                .schema(Docs.type("string"))))))));
    }

    private static void users(OpenAPI api) {
        list(api, Endpoints.API_USERS_LIST, "Cuentas (solo admins), por id");
        String admins = "Solo admins. ";
        Operation create = post(api, Endpoints.API_USERS_CREATE, "Crea una cuenta con una contraseña de un solo uso",
                List.of(required("correo", "Dirección de correo"), required("primer_nombre", "Nombre, 1 a 100 caracteres"),
                        field("rol", "user (por defecto), developer_api o admin")));
        create.setDescription(admins + "contrasena_temporal se muestra una vez; la persona la cambia al entrar.");
        errors(create, "400", "Correo inválido", "Falta el nombre", "Nombre demasiado largo o inválido",
                "rol inválido: user, developer_api o admin");
        errors(create, "409", "Ya existe una cuenta con ese correo");
        Operation update = post(api, Endpoints.API_USERS_UPDATE,
                "Cambia el rol, el estado, el nombre o la fecha de nacimiento de una cuenta",
                List.of(required("id", "id de la cuenta"), field("rol", "user, developer_api o admin"),
                        field("activo", "true o false"), field("primer_nombre", "Nombre, 1 a 100 caracteres"),
                        field("fecha_nacimiento", "AAAA-MM-DD, desde 1900 y no posterior a hoy (decisiones §27)"),
                        field("correo_tutor", "Correo de su madre, padre o tutor: obligatorio cuando fecha_nacimiento es de "
                                + "alguien menor de identity.minors.consent-age (14) que no tiene consentimiento parental")));
        update.setDescription(admins + "Todo o nada; un rol nuevo o una cuenta desactivada cierra sus sesiones. Una fecha de "
                + "nacimiento de menos de 14 años deja la cuenta esperando el consentimiento parental (se escribe a "
                + "correo_tutor); una de 14 o más lo deja de pedir. Nunca se muestra la fecha.");
        errors(update, "400", "Falta el parámetro id", "id inválido", "rol inválido: user, developer_api o admin",
                "activo inválido: true o false", "Nada que cambiar: envía rol, activo, primer_nombre o fecha_nacimiento",
                "Falta el nombre", "Esa fecha no existe: escríbela como AAAA-MM-DD",
                "La fecha de nacimiento no puede ser posterior a hoy",
                "Esa fecha de nacimiento no es posible: escríbela como AAAA-MM-DD",
                "Con esa fecha tiene menos de 14 años: escribe también el correo de su madre, padre o tutor (correo_tutor)",
                "El correo de su madre, padre o tutor (correo_tutor) no es una dirección válida",
                "El correo de su madre, padre o tutor (correo_tutor) no puede ser el de la propia cuenta");
        errors(update, "404", "Usuario no encontrado");
        errors(update, "409", "No puedes cambiar tu propio rol ni desactivar tu cuenta", "Debe quedar al menos un admin activo",
                "Una cuenta de invitado no cambia de rol: se convierte desde el juego",
                "Una cuenta de invitado no tiene fecha de nacimiento: se pide al convertirla desde el juego");
        Operation delete = post(api, Endpoints.API_USERS_DELETE, "Elimina una cuenta",
                List.of(required("id", "id de la cuenta")));
        delete.setDescription(admins + "Sus sesiones terminan; sus tokens, consentimientos, llaves de acceso y segundo factor "
                + "se borran; el id no se reutiliza.");
        errors(delete, "400", "Falta el parámetro id", "id inválido");
        errors(delete, "404", "Usuario no encontrado");
        errors(delete, "409", "No puedes eliminar tu propia cuenta", "Debe quedar al menos un admin activo");
    }

    /** Decisions §24: the address where a guest keeps its progress, asked for with the guest's own access token. */
    private static void guests(OpenAPI api) {
        Operation convert = get(api, Endpoints.API_GUEST_CONVERSION).getPost();
        convert.summary("La dirección donde un invitado guarda su progreso creando su cuenta")
                .description("Con el token de acceso del invitado (Authorization: Bearer), no con una sesión. La dirección "
                        + "{issuer}/registro?invitado=<código> sirve una vez y durante expires_in (600) segundos; allí el "
                        + "registro o «Entrar con …» convierten esa misma cuenta (mismo id y sub).")
                .addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.BEARER));
        errors(convert, "401", "Falta token Bearer", "Token inválido o revocado");
        errors(convert, "403", "Permiso denegado");
        errors(convert, "409", "La cuenta no es de invitado");
        errors(convert, "503", "Servicio no disponible");
    }

    /** Decisions §26: who may call, the fields and the refusals of the three sanctions routes. */
    private static void sanctions(OpenAPI api) {
        String who = "Un admin (en todas las aplicaciones o en una), o el dueño de la aplicación (solo en las suyas): "
                + "con una sesión (token CSRF en los POST), un token personal de alcance gestion o el token de acceso de "
                + "una aplicación de tipo servidor suya (client_credentials).";
        Operation create = post(api, Endpoints.API_SANCTIONS_CREATE, "Sanciona a una persona en una aplicación o en todas",
                List.of(required("usuario_id", "id de la cuenta sancionada"),
                        required("motivo", "Motivo que se le muestra, 1 a 200 caracteres"),
                        field("hasta", "Fin de la sanción, ISO 8601 con zona (2027-01-31T12:00:00Z); sin él, permanente"),
                        field("client_id", "La aplicación; sin él, todas (solo admins)")));
        create.setDescription(who + " Una sanción en todas cierra sus sesiones y revoca todos sus tokens; en una aplicación, "
                + "los de esa aplicación. Webhook usuario.sancionado.");
        errors(create, "400", "Falta el parámetro usuario_id", "usuario_id inválido", "Falta el parámetro motivo",
                "motivo demasiado largo (máximo 200 caracteres)", "motivo inválido: sin caracteres de control",
                "hasta inválido", "client_id inválido", "client_id inválido: una aplicación de tipo servidor no tiene jugadores",
                "Parámetro repetido: motivo");
        errors(create, "404", "Usuario no encontrado", "Aplicación no encontrada");
        errors(create, "409", "No puedes sancionarte a ti mismo");
        Operation lift = post(api, Endpoints.API_SANCTIONS_LIFT, "Levanta una sanción antes de su fin",
                List.of(required("id", "id de la sanción")));
        lift.setDescription(who + " Webhook usuario.sancion_levantada; lo revocado no vuelve.");
        errors(lift, "400", "Falta el parámetro id", "id inválido");
        errors(lift, "404", "Sanción no encontrada");
        Operation list = get(api, Endpoints.API_SANCTIONS_LIST).getGet();
        list.summary("Sanciones que el llamante puede ver, las más nuevas primero").description(who + " Con usuario_id, "
                + "todas las de esa persona; sin él, una página (page, size) de todas, con las vecinas en la cabecera Link.");
        Docs.query(list, List.of(field("usuario_id", "id de la cuenta"), PAGING.get(0), PAGING.get(1)));
        managed(list, false);
        errors(list, "400", "usuario_id inválido", "page inválido (un número de 1 a " + ListQuery.MAX_PAGE + ")",
                "size inválido (un número de 1 a " + ListQuery.MAX_SIZE + ")", "q no se admite aquí: usa usuario_id");
        errors(list, "404", "Usuario no encontrado");
    }

    private static void list(OpenAPI api, String path, String summary) {
        Operation list = get(api, path).getGet();
        list.summary(summary).description(SESSION_OR_TOKEN + " Las páginas vecinas van en la cabecera Link (rel=next, rel=prev).");
        Docs.query(list, PAGING);
        managed(list, false);
        errors(list, "400", "page inválido (un número de 1 a " + ListQuery.MAX_PAGE + ")",
                "size inválido (un número de 1 a " + ListQuery.MAX_SIZE + ")",
                "q demasiado corto (mínimo " + ListQuery.MIN_SEARCH + " caracteres)", "Parámetro repetido: page");
    }

    private static Operation post(OpenAPI api, String path, String summary, List<Docs.Field> fields) {
        Operation post = get(api, path).getPost();
        if (post == null) {
            throw new IllegalStateException("OpenAPI: springdoc no longer finds POST " + path);
        }
        post.summary(summary).description(SESSION_OR_TOKEN).requestBody(Docs.form(fields));
        managed(post, true);
        return post;
    }

    /** Who may call a management route, and the refusals before any field is read (decisions §11, §15). */
    private static void managed(Operation operation, boolean post) {
        operation.addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.SESSION));
        operation.addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.BEARER));
        errors(operation, "401", "Sesión no iniciada", "Token inválido o revocado");
        errors(operation, "403", "Permiso denegado");
        if (post) {
            errors(operation, "403", "Token CSRF inválido");
        }
        errors(operation, "503", "Servicio no disponible");
    }

    private static void errors(Operation operation, String status, String... errors) {
        for (String error : errors) {
            apiError(operation.getResponses(), status, error);
        }
    }

    private static PathItem get(OpenAPI api, String path) {
        PathItem item = api.getPaths() == null ? null : api.getPaths().get(path);
        if (item == null) {
            throw new IllegalStateException("OpenAPI: springdoc no longer finds " + path);
        }
        return item;
    }
}
