package com.example.identity.openapi;

import static com.example.identity.openapi.Docs.field;
import static com.example.identity.openapi.Docs.required;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;

import com.example.identity.Endpoints;

/**
 * The routes that no controller serves, so that springdoc cannot see them: Spring Authorization Server's
 * endpoints are filters of the authorization server chain (oauth/), and so are the discovery document and the
 * key set. Each is written here from the contract (specification §3, decisions §1, §2, §12, §16, §21, §25, §28), with its
 * fields and its answers; the Spanish legacy errors of the token endpoint are examples of exact bodies.
 * {@code OpenApiDocumentIT} checks every one against the running service.
 */
final class OAuthRoutes {

    private OAuthRoutes() {
    }

    static void add(OpenAPI api) {
        Paths paths = api.getPaths();
        Operation authorizeGet = authorize("Petición de autorización (código)");
        Operation authorizePost = authorize("Petición de autorización por POST (OIDC Core §3.1.2.1)");
        authorizePost.requestBody(Docs.form(authorizeFields()));
        authorizePost.setParameters(null);
        paths.addPathItem(Endpoints.AUTHORIZE, new PathItem().get(authorizeGet).post(authorizePost));

        Operation token = operation("Intercambia un código, un refresh token o un device_code por tokens; un servidor pide el suyo; "
                        + "un juego pide un ticket para un servidor",
                "Credenciales del cliente en el cuerpo (client_secret_post) o con HTTP Basic (una aplicación nativa o de "
                        + "dispositivo: solo client_id). Errores del código en castellano (contrato heredado); los grants nuevos "
                        + "usan códigos RFC 6749 §5.2 con error_description. Tickets (RFC 8693, intercambio de token): una "
                        + "aplicación web, nativa o de dispositivo cambia el token de acceso de un jugador, emitido a ella, por un "
                        + "JWT (typ ticket+jwt) para un servidor de juego de su mismo propietario, que lo verifica sin llamar "
                        + "aquí con las claves de /oauth/jwks.json.");
        token.requestBody(Docs.form(List.of(required("grant_type",
                "authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code, client_credentials "
                        + "(solo aplicaciones de tipo servidor) o urn:ietf:params:oauth:grant-type:token-exchange (tickets; "
                        + "aplicaciones web, nativas y de dispositivo)"),
                field("code", "El código recibido"), field("redirect_uri", "La misma de la petición"),
                field("client_id", "Identificador del cliente"), field("client_secret", "Secreto (clientes confidenciales)"),
                field("code_verifier", "PKCE (obligatorio en aplicaciones nativas)"), field("refresh_token", "Refresh token"),
                field("device_code", "device_code del flujo de dispositivo"),
                field("subject_token", "Tickets: el token de acceso del jugador, emitido a esta aplicación"),
                field("subject_token_type", "Tickets: urn:ietf:params:oauth:token-type:access_token"),
                field("audience", "Tickets: el client_id del servidor de juego (tipo servidor, mismo propietario), uno solo"),
                field("requested_token_type", "Tickets: opcional, urn:ietf:params:oauth:token-type:jwt"),
                field("scope", "client_credentials y tickets: ninguno (un servidor no pide alcances; un ticket no lleva)"))));
        token.addParametersItem(dpopHeader("Opcional (obligatoria si la aplicación tiene dpop_obligatorio): una prueba "
                + "DPoP (RFC 9449) con htm POST y htu esta URL; los tokens emitidos quedan ligados a su clave (token_type "
                + "DPoP), y el refresh token de una aplicación pública también. Tickets: obligatoria si el token del "
                + "jugador está ligado, de la misma clave."));
        token.getResponses().addApiResponse("200", Docs.json("access_token, token_type, expires_in, scope, refresh_token, "
                + "id_token; un ticket: {\"access_token\":\"<JWT>\",\"issued_token_type\":\"urn:ietf:params:oauth:token-type:jwt\","
                + "\"token_type\":\"N_A\",\"expires_in\":60}"));
        for (String error : List.of("grant_type inválido", "Faltan parámetros obligatorios", "redirect_uri no coincide con el registrado",
                "Código de autorización inválido", "Código ya utilizado", "Código expirado")) {
            oauthError(token.getResponses(), "400", error, null);
        }
        for (String error : List.of("client_id inválido", "client_secret incorrecto", "client_revoked")) {
            oauthError(token.getResponses(), "401", error, null);
        }
        oauthError(token.getResponses(), "400", "invalid_grant", "El refresh token no es válido");
        oauthError(token.getResponses(), "400", "invalid_scope", "Una aplicacion de tipo servidor no pide alcances");
        oauthError(token.getResponses(), "400", "invalid_target",
                "audience debe ser el client_id de una aplicacion de tipo servidor del mismo propietario");
        oauthError(token.getResponses(), "400", "invalid_grant", "subject_token invalido, caducado, revocado o de otra aplicacion");
        oauthError(token.getResponses(), "400", "invalid_dpop_proof",
                "iat de la prueba DPoP fuera de la ventana de 60 segundos");
        // decisions §26: refresh, device code and tickets of a person a sanction keeps out of the application
        oauthError(token.getResponses(), "400", "invalid_grant",
                "La cuenta esta suspendida en esta aplicacion hasta 2027-01-07T12:00:00Z");
        oauthError(token.getResponses(), "500", "oidc_key_missing", null);
        oauthError(token.getResponses(), "503", "Servicio no disponible", null);
        paths.addPathItem(Endpoints.TOKEN, new PathItem().post(token));

        Operation jwks = operation("Las claves públicas RS256 (JWK Set)", null);
        jwks.getResponses().addApiResponse("200", Docs.json("{\"keys\":[...]}"));
        paths.addPathItem(Endpoints.JWKS, new PathItem().get(jwks));
        Operation discovery = operation("Documento de descubrimiento de OpenID Connect", null);
        discovery.getResponses().addApiResponse("200", Docs.json("issuer, endpoints, scopes y métodos admitidos"));
        paths.addPathItem(Endpoints.DISCOVERY, new PathItem().get(discovery));

        paths.addPathItem(Endpoints.USERINFO, new PathItem().get(userinfo()).post(userinfo()
                .requestBody(Docs.form(List.of(field("access_token", "El token de acceso, si no va en Authorization"))))));

        for (String path : List.of(Endpoints.REVOKE, Endpoints.INTROSPECT)) {
            boolean revoke = path.equals(Endpoints.REVOKE);
            Operation op = clientAuthenticated(revoke ? "Revoca un token (RFC 7009)" : "Introspección de un token (RFC 7662)");
            if (!revoke) {
                // decisions §21: a servidor application may present its own access token instead of its secret
                op.description(op.getDescription() + " Una aplicación de tipo servidor puede presentar su propio token "
                        + "de acceso (Authorization: Bearer) y solo ve los tokens de las aplicaciones de su dueño.");
                oauthError(op.getResponses(), "401", "invalid_client", "Token de acceso invalido, caducado o revocado");
            }
            op.requestBody(Docs.form(List.of(required("token", "El token"), field("token_type_hint",
                    "access_token o refresh_token"), field("client_id", "Identificador del cliente"),
                    field("client_secret", "Secreto del cliente"))));
            op.getResponses().addApiResponse("200", Docs.json(revoke ? "Vacío: el token ya no vale"
                    : "{\"active\":true,...} o {\"active\":false}"));
            paths.addPathItem(path, new PathItem().post(op));
        }

        Operation device = clientAuthenticated("Empieza el flujo de dispositivo (RFC 8628 §3.1)");
        device.requestBody(Docs.form(List.of(required("client_id", "Una aplicación de tipo dispositivo"),
                field("scope", "openid, email, profile, offline_access"))));
        device.getResponses().addApiResponse("200", Docs.json(
                "device_code, user_code (XXXX-XXXX), verification_uri, verification_uri_complete, expires_in (600), interval (5)"));
        oauthError(device.getResponses(), "400", "unauthorized_client", null);
        paths.addPathItem(Endpoints.DEVICE, new PathItem().post(device));

        Operation par = clientAuthenticated("Envía antes una petición de autorización (PAR, RFC 9126)");
        par.description(par.getDescription() + " Los parámetros de la petición de autorización en el cuerpo; una "
                + "aplicación nativa solo con client_id y PKCE. 201 con un request_uri de un solo uso, para esa "
                + "aplicación, durante 60 s: /oauth/authorize.php?client_id=...&request_uri=... sigue con esos parámetros.");
        par.requestBody(Docs.form(List.of(required("response_type", "code"), required("client_id", "Identificador del cliente"),
                required("redirect_uri", "Exactamente la registrada"), field("scope", "openid, email, profile, offline_access"),
                field("state", "Se devuelve tal cual"), field("code_challenge", "PKCE S256 (obligatorio en nativas)"),
                field("code_challenge_method", "S256"), field("nonce", "Va al id_token"),
                field("prompt", "none, login o consent"), field("max_age", "Segundos"), field("claims", "JSON"),
                field("client_secret", "Secreto, si no va con HTTP Basic (no se guarda con la petición)"))));
        par.getResponses().addApiResponse("201", Docs.json(
                "{\"request_uri\":\"urn:ietf:params:oauth:request_uri:<aleatorio>\",\"expires_in\":60}"));
        oauthError(par.getResponses(), "400", "invalid_request", "redirect_uri no coincide con el registrado");
        oauthError(par.getResponses(), "400", "unauthorized_client",
                "Solo las aplicaciones de tipo web o nativa envian solicitudes de autorizacion");
        paths.addPathItem(Endpoints.PAR, new PathItem().post(par));
        paths.addPathItem(Endpoints.GUEST, new PathItem().post(guests()));
        pages(paths);
    }

    /** {@code /oauth/invitado.php} (decisions §24): a game's guest player and its tokens, in one call. */
    private static Operation guests() {
        Operation op = operation("Crea un jugador invitado y le da tokens (decisiones §24)",
                "Una aplicación de tipo nativa o dispositivo que admite invitados (invitados=true) se identifica con su "
                        + "client_id (cliente público, sin secreto). El invitado tiene rol invitado, primer_nombre "
                        + "«Invitado NNNN» y ninguna dirección de correo; sus tokens son los de esa aplicación: el "
                        + "refresh_token se renueva en /oauth/token.php (grant_type=refresh_token, rotado en cada uso). Como "
                        + "mucho identity.guests.per-address-hour (10) invitados por dirección de cliente y hora, contados "
                        + "en todas las instancias.");
        op.requestBody(Docs.form(List.of(required("client_id", "Una aplicación nativa o dispositivo que admite invitados"),
                field("scope", "openid, email, profile, offline_access (con openid, también un id_token)"))));
        op.getResponses().addApiResponse("200", Docs.json("access_token, token_type (Bearer), expires_in, refresh_token y, "
                + "con openid, id_token (invitado: true)"));
        oauthError(op.getResponses(), "400", "invalid_request", "Falta el parametro client_id");
        oauthError(op.getResponses(), "400", "invalid_request", "Parametro repetido: client_id");
        oauthError(op.getResponses(), "400", "unauthorized_client", "Esta aplicacion no admite invitados");
        oauthError(op.getResponses(), "400", "invalid_scope", "Alcance desconocido: openid, email, profile u offline_access");
        oauthError(op.getResponses(), "401", "invalid_client", "client_id desconocido");
        oauthError(op.getResponses(), "401", "invalid_client", "La aplicacion esta revocada");
        oauthError(op.getResponses(), "429", "temporarily_unavailable", "Demasiadas solicitudes, intentalo mas tarde");
        op.getResponses().get("429").description(op.getResponses().get("429").getDescription()
                + " (con Retry-After en segundos)");
        oauthError(op.getResponses(), "503", "Servicio no disponible", null);
        return op;
    }

    /**
     * The two pages under /oauth/ (page controllers of the web chain, which springdoc leaves out): the
     * consent page in front of the authorization endpoint and RP-initiated logout.
     */
    private static void pages(Paths paths) {
        Operation consentGet = page("Página de consentimiento de una aplicación de terceros",
                "Sin sesión: 302 a /login/. Con sesión, la página; si ya hay consentimiento, 302 a la autorización.");
        Operation consentPost = page("Decisión de consentimiento (decision=allow|deny, con el token CSRF)",
                "302 a la autorización (allow) o al redirect_uri con error=access_denied (deny).");
        consentPost.getResponses().addApiResponse("403", Docs.page("Sin token CSRF"));
        paths.addPathItem(Endpoints.CONSENT, new PathItem().get(consentGet).post(consentPost));
        PathItem logout = new PathItem();
        for (boolean get : new boolean[] { true, false }) {
            Operation op = page("Cierre de sesión iniciado por la aplicación (OIDC RP-Initiated Logout 1.0)",
                    "id_token_hint, post_logout_redirect_uri (registrada), state. Sin una pista válida, una página "
                            + "de confirmación; con ella, la sesión termina en todas las instancias y 302 a la dirección.");
            List<Docs.Field> fields = List.of(field("id_token_hint", "Un id_token emitido a la aplicación"),
                    field("post_logout_redirect_uri", "Registrada para la aplicación"), field("state", "Se devuelve tal cual"),
                    field("client_id", "Identificador del cliente"));
            if (get) {
                Docs.query(op, fields);
                logout.get(op);
            }
            else {
                logout.post(op.requestBody(Docs.form(fields)));
            }
        }
        logout.getPost().getResponses().addApiResponse("303", new ApiResponse()
                .description("Redirección a la página de confirmación"));
        paths.addPathItem(Endpoints.LOGOUT, logout);
    }

    private static Operation page(String summary, String description) {
        Operation op = operation(summary, description);
        op.getResponses().addApiResponse("200", Docs.page("La página, en castellano o inglés"));
        op.getResponses().addApiResponse("302", new ApiResponse().description("Redirección"));
        return op;
    }

    private static Operation authorize(String summary) {
        Operation op = operation(summary, "Con sesión: 302 al redirect_uri con code y state. Sin sesión: 302 a /login/. "
                + "Un client_id o redirect_uri inválido, o un cliente revocado: página HTML 400, sin redirigir. "
                + "Otros errores: 302 al redirect_uri con error y state (RFC 6749 §4.1.2.1).");
        Docs.query(op, authorizeFields());
        op.getResponses().addApiResponse("302", new ApiResponse().description("Redirección: al login, o al redirect_uri"));
        op.getResponses().addApiResponse("400", Docs.page("client_id inválido | redirect_uri no coincide con el registrado "
                + "| client_revoked"));
        return op;
    }

    private static List<Docs.Field> authorizeFields() {
        return List.of(required("response_type", "code"), required("client_id", "Identificador del cliente"),
                field("redirect_uri", "Exactamente la registrada"), field("scope", "openid, email, profile, offline_access"),
                field("state", "Se devuelve tal cual"), field("code_challenge", "PKCE S256"),
                field("code_challenge_method", "S256"), field("nonce", "Va al id_token"),
                field("prompt", "none, login o consent"), field("max_age", "Segundos"), field("login_hint", "Correo"),
                field("ui_locales", "es o en"), field("acr_values", "mfa"), field("claims", "JSON (OIDC Core §5.5)"),
                field("request_uri", "El de /oauth/par.php (con client_id y nada más): su petición, una vez; otro "
                        + "cualquiera, request_uri_not_supported"));
    }

    private static Operation userinfo() {
        Operation op = operation("UserInfo de OpenID Connect",
                "El token de acceso en Authorization: Bearer (o, por POST, en el campo access_token). Un token ligado "
                        + "a una clave DPoP: Authorization: DPoP <token> y la cabecera DPoP con una prueba de esa clave.");
        op.addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.BEARER));
        op.addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.DPOP));
        op.addParametersItem(dpopHeader("Una prueba de la clave del token (htm, htu, iat, jti, ath), con "
                + "Authorization: DPoP"));
        op.getResponses().addApiResponse("200", Docs.json("sub (user:<id>), email y email_verified con scope email, "
                + "name y given_name con profile"));
        oauthError(op.getResponses(), "401", "invalid_token", "Falta el token de acceso");
        oauthError(op.getResponses(), "401", "invalid_token", "Token de acceso invalido, caducado o revocado");
        oauthError(op.getResponses(), "401", "invalid_dpop_proof",
                "Prueba DPoP ya utilizada: cada peticion lleva una prueba nueva (jti)");
        return op;
    }

    /** The {@code DPoP} request header (RFC 9449 §4.1). */
    private static io.swagger.v3.oas.models.parameters.Parameter dpopHeader(String description) {
        return new io.swagger.v3.oas.models.parameters.Parameter().in("header").name("DPoP").required(false)
                .description(description).schema(new io.swagger.v3.oas.models.media.StringSchema());
    }

    private static Operation clientAuthenticated(String summary) {
        Operation op = operation(summary, "Con autenticación del cliente (cuerpo o HTTP Basic).");
        op.addSecurityItem(new SecurityRequirement().addList(OpenApiConfig.CLIENT));
        oauthError(op.getResponses(), "401", "invalid_client", "Faltan las credenciales del cliente");
        oauthError(op.getResponses(), "401", "invalid_client", "Autenticacion del cliente fallida");
        return op;
    }

    private static Operation operation(String summary, String description) {
        return new Operation().summary(summary).description(description).addTagsItem("oauth").responses(new ApiResponses());
    }

    /** {@code {"error":...}}, with {@code error_description} when the answer has one. */
    private static void oauthError(ApiResponses responses, String status, String error, String description) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error);
        if (description != null) {
            body.put("error_description", description);
        }
        Docs.error(responses, status, description == null ? error : error + ": " + description, body);
    }
}
