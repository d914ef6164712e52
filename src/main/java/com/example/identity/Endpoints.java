package com.example.identity;

import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Every path this service answers on, every request matcher built from them and the order of the five
 * security filter chains, in one place, read by all: a class that needs a path, even its own, takes it from
 * here (the strings are the contract of {@code docs/spec/}: change none of them).
 */
public final class Endpoints {

    private Endpoints() {
    }

    // ----- OAuth 2.0 and OpenID Connect: the authorization server chain (oauth/) -----

    /** The authorization endpoint (Spring Authorization Server), by GET or POST. */
    public static final String AUTHORIZE = "/oauth/authorize.php";
    /** The token endpoint: every grant. */
    public static final String TOKEN = "/oauth/token.php";
    /** The public key set. */
    public static final String JWKS = "/oauth/jwks.json";
    /** OpenID Connect's discovery document. */
    public static final String DISCOVERY = "/.well-known/openid-configuration";
    /** OpenID Connect's UserInfo endpoint (the server's; the games' own is {@link #API_USERINFO}). */
    public static final String USERINFO = "/oauth/userinfo.php";
    /** Revocation (RFC 7009). */
    public static final String REVOKE = "/oauth/revoke.php";
    /** Introspection (RFC 7662). */
    public static final String INTROSPECT = "/oauth/introspect.php";
    /** The device authorization endpoint (RFC 8628 §3.1). */
    public static final String DEVICE = "/oauth/device.php";
    /** The pushed authorization request endpoint (RFC 9126, decisions §28). */
    public static final String PAR = "/oauth/par.php";
    /** Guest players (decisions §24, oauth/guest/): a game makes a guest account and gets its tokens, by POST. */
    public static final String GUEST = "/oauth/invitado.php";
    /** RP-initiated logout (oauth/logout/LogoutEndpoint), a page of the web chain. */
    public static final String LOGOUT = "/oauth/logout.php";
    /** The consent page in front of the authorization endpoint (consent/ConsentController), web chain. */
    public static final String CONSENT = "/oauth/consent";
    /** The device flow's user step, the verification URI (deviceflow/ActivationController), web chain. */
    public static final String ACTIVATION = "/activar";

    // ----- API routes: the two API chains (api/) -----

    /** The games' hot path: bearer token only, its own chain. */
    public static final String API_USERINFO = "/api/userinfo.php";
    /** Token creation: a developer's session. */
    public static final String API_CREATE_TOKEN = "/api/tokens/create.php";
    /** Every API route, the second API chain's matcher. */
    public static final String API_ALL = "/api/**";
    /** The management routes of tokens (decisions §11), bearer tokens of scope {@code gestion}. */
    public static final String API_TOKENS_ALL = "/api/tokens/**";
    /** The management routes of applications (decisions §11), bearer tokens of scope {@code gestion}. */
    public static final String API_CLIENTS_ALL = "/api/clients/**";
    public static final String API_LIST_TOKENS = "/api/tokens/list.php";
    public static final String API_REVOKE_TOKEN = "/api/tokens/revoke.php";
    public static final String API_LIST_CLIENTS = "/api/clients/list.php";
    public static final String API_CREATE_CLIENT = "/api/clients/create.php";
    public static final String API_REVOKE_CLIENT = "/api/clients/revoke.php";
    /** Everything under {@code /api/}: the JSON error shape of decisions §1 ({@code web/ErrorPages}). */
    public static final String API_PREFIX = "/api/";
    /** The administration API (decisions §23): admins only, a session with CSRF or a {@code gestion} token. */
    public static final String API_USERS_LIST = "/api/usuarios/list.php";
    public static final String API_USERS_CREATE = "/api/usuarios/create.php";
    public static final String API_USERS_UPDATE = "/api/usuarios/update.php";
    public static final String API_USERS_DELETE = "/api/usuarios/delete.php";
    public static final String API_USERS_ALL = "/api/usuarios/**";
    /** A guest's game asks for the address where the player keeps the progress (decisions §24), bearer token only. */
    public static final String API_GUEST_CONVERSION = "/api/invitados/convertir.php";
    /**
     * Sanctions (decisions §26): admins everywhere, an application's owner in their applications, with a session and
     * CSRF, a {@code gestion} token or a {@code servidor} application's own token.
     */
    public static final String API_SANCTIONS_CREATE = "/api/sanciones/crear.php";
    public static final String API_SANCTIONS_LIFT = "/api/sanciones/levantar.php";
    public static final String API_SANCTIONS_LIST = "/api/sanciones/list.php";
    public static final String API_SANCTIONS_ALL = "/api/sanciones/**";
    /** The OpenAPI 3.1 document of every /api/ and /oauth/ route (openapi/), public; springdoc serves it. */
    public static final String API_OPENAPI = "/api/openapi.json";
    /** The same document in YAML (springdoc serves it beside the JSON one). */
    public static final String API_OPENAPI_YAML = "/api/openapi.json.yaml";

    // ----- Pages: the web chain (session, CSRF, Thymeleaf) -----

    public static final String HOME = "/";
    public static final String ERROR = "/error";
    public static final String CSS_ALL = "/css/**";
    public static final String JS_ALL = "/js/**";
    /** The stylesheets and scripts, as path prefixes. */
    public static final String CSS_PREFIX = "/css/";
    public static final String JS_PREFIX = "/js/";
    public static final String FAVICON = "/favicon.ico";
    /** The login page, where the form posts too. */
    public static final String LOGIN = "/login/";
    /** The login page after a logout. */
    public static final String LOGGED_OUT = "/login/?logout";
    /** The web chain's logout (POST). */
    public static final String SIGN_OUT = "/logout";
    /** The login's second step (signin/SecondStepController). */
    public static final String SECOND_STEP = "/login/segundo-paso";
    /** The second step for an account that must enrol first. */
    public static final String SECOND_STEP_ENROL = "/login/segundo-paso/alta";
    /** Password recovery: the request of a link (recovery/). */
    public static final String RECOVERY_REQUEST = "/login/recuperar";
    /** Password recovery: the link's page. */
    public static final String RECOVERY_RESET = "/login/restablecer";
    /** The person's own pages (settings/). */
    /** Sign-up (registration/, decisions §18): the form, and the mailed link that creates the account. */
    public static final String REGISTRATION = "/registro";
    public static final String REGISTRATION_CONFIRM = "/registro/confirmar";
    /** A parent's answer to a child's sign-up (decisions §27): the mailed links' page, open to anyone with the link. */
    public static final String PARENTAL_CONSENT = "/tutor/consentir";
    /** A child waiting for the parent asks for the parent's mail again (minors/, from the account page). */
    public static final String PARENTAL_CONSENT_RESEND = "/cuenta/tutor/reenviar";
    /**
     * Login with other providers (federation/, decisions §19): the buttons' start ({@code + registrationId}),
     * Spring Security's redirect to the provider and its redirect URI, the proof before linking an address
     * that has an account, and its end after the second step.
     */
    public static final String FEDERATED_START = "/login/federado/";
    public static final String FEDERATED_AUTHORIZATION_ALL = "/oauth2/authorization/*";
    public static final String FEDERATED_REDIRECT_ALL = "/login/oauth2/code/*";
    public static final String FEDERATED_LINK = "/login/vincular";
    /** A first login with another provider that gave no birth date asks it here, once, before the account exists (§27). */
    public static final String FEDERATED_BIRTH_DATE = "/login/fecha-nacimiento";
    public static final String FEDERATED_LINK_DONE = "/login/vincular/terminar";
    /** Steam's OpenID 2.0 return ({@code openid.return_to}, federation/SteamLoginController, decisions §19). */
    public static final String STEAM_RETURN = "/login/steam/vuelta";
    public static final String ACCOUNT_LINKS_REMOVE = "/cuenta/seguridad/vinculos/desvincular";
    public static final String ACCOUNT = "/cuenta/";
    public static final String ACCOUNT_SECURITY = "/cuenta/seguridad";
    public static final String ACCOUNT_TOTP = "/cuenta/seguridad/totp";
    public static final String ACCOUNT_PASSWORD = "/cuenta/contrasena";
    /** The e-mail change's form (settings/AccountPagesController), checked with the current password. */
    public static final String ACCOUNT_EMAIL = "/cuenta/correo";
    /** A recent proof before a sensitive change (password, or the second factor). */
    public static final String ACCOUNT_SECURITY_CONFIRM = ACCOUNT_SECURITY + "/confirmar";
    public static final String ACCOUNT_TOTP_CODES = ACCOUNT_TOTP + "/codigos";
    public static final String ACCOUNT_TOTP_DISABLE = ACCOUNT_TOTP + "/desactivar";
    /** Deleting one's own account (decisions §20, settings/AccountDeletionController). */
    public static final String ACCOUNT_DELETE = "/cuenta/eliminar";
    /** The JSON download of everything stored about the person (decisions §20, settings/DataExportController). */
    public static final String ACCOUNT_DATA = "/cuenta/datos";
    /** The new address's confirmation link, opened on any device. */
    public static final String ACCOUNT_EMAIL_CONFIRM = "/cuenta/correo/confirmar";
    public static final String ACCOUNT_APPLICATIONS = "/cuenta/aplicaciones";
    /** The reference page of the JSON routes (openapi/), public: Swagger UI over {@link #API_OPENAPI}. */
    public static final String API_REFERENCE = "/documentacion/api";
    /** Files of registry packages served by the service (Swagger UI's, for {@link #API_REFERENCE}). */
    public static final String WEBJARS_ALL = "/webjars/**";
    /** The dashboards (dashboard/). */
    public static final String DEVELOPER_DASHBOARD = "/dashboard/developer.php";
    public static final String ADMIN_DASHBOARD = "/dashboard/admin.php";
    public static final String ADMIN_ALL = "/dashboard/admin/**";
    public static final String DASHBOARD_ALL = "/dashboard/**";
    /** The sanctions page (dashboard/SanctionsController): developers in their applications, admins everywhere. */
    public static final String SANCTIONS_PAGE = "/dashboard/sanciones";
    /** Spring Security's passkey registration endpoints (passkey/PasskeyRegistration guards them). */
    public static final String PASSKEY_REGISTER_OPTIONS = "/webauthn/register/options";
    public static final String PASSKEY_REGISTER = "/webauthn/register";

    // ----- Probes and the actuator: the operations chain (ops/) -----

    public static final String LIVEZ = "/livez";
    public static final String READYZ = "/readyz";
    public static final String ACTUATOR = "/actuator";
    public static final String ACTUATOR_ALL = "/actuator/**";

    // ----- The order of the security filter chains: the first that matches serves the request -----

    /** The authorization server's endpoints ({@link #AUTHORIZATION_SERVER}). */
    public static final int AUTHORIZATION_SERVER_CHAIN = Ordered.HIGHEST_PRECEDENCE;
    /** The probes and the actuator. */
    public static final int OPERATIONS_CHAIN = 1;
    /** {@link #API_USERINFO} alone. */
    public static final int API_USERINFO_CHAIN = 2;
    /** The rest of {@link #API_ALL}. */
    public static final int API_CHAIN = 3;
    /** Everything else: the pages. */
    public static final int WEB_CHAIN = 4;

    /** The JSON endpoints under /oauth/ and /.well-known/ (the authorization endpoint is a browser page). */
    public static boolean isOAuthJson(String path) {
        return (path.startsWith("/oauth/") && !path.startsWith(AUTHORIZE)) || path.startsWith("/.well-known/");
    }

    /** The endpoints of decisions §12 (and §24's guests) that answer standard clients in the RFCs' shape. */
    public static boolean isStandardJson(String path) {
        return path.equals(USERINFO) || path.equals(REVOKE) || path.equals(INTROSPECT) || path.equals(PAR)
                || path.equals(GUEST);
    }

    // ----- The order of the servlet filters registered outside the security chains -----

    /** The request id, first of all (web/RequestId). */
    public static final int REQUEST_ID_FILTER = Ordered.HIGHEST_PRECEDENCE;
    /** The token and userinfo endpoints' timers (ops/EndpointMetricsFilter), after the request id. */
    public static final int ENDPOINT_METRICS_FILTER = Ordered.HIGHEST_PRECEDENCE + 10;
    /** A parameter that cannot be decoded becomes the endpoint's own 400 (web/UndecodableParameters). */
    public static final int UNDECODABLE_PARAMETERS_FILTER = Ordered.HIGHEST_PRECEDENCE + 15;
    /** An unreachable database becomes the endpoint's own 503, before anything reads it (ops/DatabaseOutageFilter). */
    public static final int DATABASE_OUTAGE_FILTER = Ordered.HIGHEST_PRECEDENCE + 20;
    // Spring Session's SessionRepositoryFilter (its DEFAULT_ORDER) comes next: session/SessionConfig places
    // its one-read-per-request scope just before it, then Spring Security's chains (Boot's default order).

    // ----- Request matchers of the authorization server chain -----

    private static final PathPatternRequestMatcher.Builder PATH = PathPatternRequestMatcher.withDefaults();

    public static final RequestMatcher TOKEN_ENDPOINT = PATH.matcher(TOKEN);
    /** The authorization endpoint, by GET or POST (OIDC Core §3.1.2.1). */
    public static final RequestMatcher AUTHORIZE_ENDPOINT = new OrRequestMatcher(PATH.matcher(HttpMethod.GET, AUTHORIZE),
            PATH.matcher(HttpMethod.POST, AUTHORIZE));
    /** The two public JSON documents, the key set and the discovery document. */
    public static final RequestMatcher PUBLIC_JSON = new OrRequestMatcher(PATH.matcher(JWKS), PATH.matcher(DISCOVERY));
    /** OpenID Connect's UserInfo endpoint, by GET or POST (OIDC Core §5.3.1). */
    public static final RequestMatcher USERINFO_ENDPOINT = new OrRequestMatcher(PATH.matcher(HttpMethod.GET, USERINFO),
            PATH.matcher(HttpMethod.POST, USERINFO));
    /** Revocation (RFC 7009) and introspection (RFC 7662), with client authentication, by POST. */
    public static final RequestMatcher REVOKE_INTROSPECT = new OrRequestMatcher(PATH.matcher(HttpMethod.POST, REVOKE),
            PATH.matcher(HttpMethod.POST, INTROSPECT));
    /** The device authorization endpoint (RFC 8628 §3.1), by POST, where a console starts the device flow. */
    public static final RequestMatcher DEVICE_ENDPOINT = PATH.matcher(HttpMethod.POST, DEVICE);
    /** The pushed authorization request endpoint (RFC 9126 §2), by POST, where a client pushes a request first. */
    public static final RequestMatcher PAR_ENDPOINT = PATH.matcher(HttpMethod.POST, PAR);
    /** Guest players' endpoint (decisions §24), by POST: a public client's id, no secret (oauth/guest/). */
    public static final RequestMatcher GUEST_ENDPOINT = PATH.matcher(HttpMethod.POST, GUEST);
    /** The endpoints where a client authenticates, and their address budget applies (abuse/RateLimitFilter). */
    public static final RequestMatcher CLIENT_ENDPOINTS = new OrRequestMatcher(TOKEN_ENDPOINT, REVOKE_INTROSPECT,
            DEVICE_ENDPOINT, PAR_ENDPOINT);
    /** The endpoints that are called by programs with a token or credentials, never with a session. */
    public static final RequestMatcher SESSIONLESS = new OrRequestMatcher(TOKEN_ENDPOINT, PUBLIC_JSON,
            USERINFO_ENDPOINT, REVOKE_INTROSPECT, PATH.matcher(DEVICE), PATH.matcher(PAR), PATH.matcher(GUEST));
    /** Everything the authorization server chain serves, by any method (its security matcher). */
    public static final RequestMatcher AUTHORIZATION_SERVER = new OrRequestMatcher(PATH.matcher(AUTHORIZE),
            TOKEN_ENDPOINT, PUBLIC_JSON, PATH.matcher(USERINFO), PATH.matcher(REVOKE), PATH.matcher(INTROSPECT),
            PATH.matcher(DEVICE), PATH.matcher(PAR), PATH.matcher(GUEST));
}
