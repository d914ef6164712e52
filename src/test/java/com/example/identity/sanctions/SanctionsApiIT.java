package com.example.identity.sanctions;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.sanctions.Players.Person;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * {@code /api/sanciones/*.php} (decisions §26): each kind of caller places, lifts and lists sanctions where it may and
 * is refused elsewhere, in the {@code /api/} shape; the exact bodies; every refusal of a field; a global sanction
 * ends the person's session, tokens and codes at once, and the login says why and until when; the end by itself on a
 * moved clock, and the early lift.
 */
@IntegrationTest
class SanctionsApiIT {

    static final String CREATE = "/api/sanciones/crear.php";
    static final String LIFT = "/api/sanciones/levantar.php";
    static final String LIST = "/api/sanciones/list.php";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MovableClock clock;

    Players players;

    @BeforeEach
    void players() {
        players = new Players(port, accounts, clients, tokens);
    }

    HttpResponse<String> post(String path, Map<String, String> form, String authorization) {
        return new WebClient(port).postForm(path, form, "Authorization", authorization);
    }

    static Map<String, String> form(String... pairs) {
        Map<String, String> form = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    static String iso(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    long sanctionId(HttpResponse<String> placed) {
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);
        return json(placed).at("/sancion/id").asLong();
    }

    @Test
    void anAdminSuspendsAPersonEverywhereAndTheirSessionTokensAndCodesEndAtOnce() {
        Person admin = players.admin();
        Person dev = players.person(Role.DEVELOPER_API, "Dev");
        var app = players.webApp(dev);
        Person player = players.person(Role.DEVELOPER_API, "Jugadora");
        WebClient session = players.browser(player);
        String personal = players.perfilToken(player);
        String access = players.accessToken(session, app);
        String code = players.code(session, app);
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", access).statusCode()).isEqualTo(200);

        WebClient adminSession = players.browser(admin);
        String csrf = adminSession.csrfFrom("/dashboard/admin.php");
        Instant hasta = clock.instant().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);
        HttpResponse<String> placed = adminSession.postForm(CREATE, form("usuario_id", Long.toString(player.id()),
                "motivo", "Insultos en el chat", "hasta", hasta.toString(), "_csrf", csrf));

        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);
        assertThat(placed.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(placed.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode sancion = json(placed).get("sancion");
        assertThat(json(placed).propertyNames()).containsExactly("ok", "sancion");
        assertThat(sancion.propertyNames()).containsExactly("id", "usuario_id", "motivo", "hasta", "client_id", "creada");
        assertThat(placed.body()).isEqualTo("{\"ok\":true,\"sancion\":{\"id\":" + sancion.get("id").asLong()
                + ",\"usuario_id\":" + player.id() + ",\"motivo\":\"Insultos en el chat\",\"hasta\":\"" + hasta
                + "\",\"client_id\":null,\"creada\":\"" + sancion.get("creada").asString() + "\"}}");
        assertThat(Instant.parse(sancion.get("creada").asString())).isCloseTo(clock.instant(), org.assertj.core.api.Assertions.within(5, ChronoUnit.SECONDS));

        // the session is gone, every token is refused as revoked, the code expired
        assertThat(session.get("/cuenta/").statusCode()).isEqualTo(302);
        assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", access), 401, "Token inválido o revocado");
        assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", personal), 401, "Token inválido o revocado");
        HttpResponse<String> exchanged = players.exchange(app, code);
        assertThat(exchanged.statusCode()).isEqualTo(400);
        assertThat(exchanged.body()).isEqualTo("{\"error\":\"Código expirado\"}");

        // the right password shows why and until when; a wrong one says nothing of it
        var browser = new WebClient(port);
        HttpResponse<String> refused = browser.login(player.email(), Players.PASSWORD);
        assertThat(WebClient.location(refused)).isEqualTo("/login/?suspendida=1");
        String page = browser.get("/login/?suspendida=1").body();
        assertThat(page).contains("id=\"suspended\"")
                .contains("Tu cuenta está suspendida hasta el " + SanctionService.WHEN.format(hasta) + ".")
                .contains("Motivo:").contains("<strong>Insultos en el chat</strong>");
        assertThat(browser.get("/cuenta/").statusCode()).as("not logged in").isEqualTo(302);
        assertThat(browser.get("/login/?suspendida=1").body()).as("shown once").doesNotContain("id=\"suspended\"");
        var english = new WebClient(port);
        english.login(player.email(), Players.PASSWORD);
        assertThat(english.get("/login/?suspendida=1", "Accept-Language", "en").body())
                .contains("Your account is suspended until " + SanctionService.WHEN.format(hasta) + ".")
                .contains("Reason:");
        var wrong = new WebClient(port);
        assertThat(WebClient.location(wrong.login(player.email(), "not-the-password"))).isEqualTo("/login/?error=1");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'SANCTION_PLACED' and subject like ?",
                Long.class, "sanción #" + sancion.get("id").asLong() + " de usuario #" + player.id()
                        + " en todas las aplicaciones, hasta %: Insultos en el chat; tokens revocados: %")).isEqualTo(1);

        // lifted early: the password logs in again (what was revoked stays revoked)
        assertThat(post(LIFT, form("id", sancion.get("id").asString()), players.gestionToken(admin)).body())
                .isEqualTo("{\"ok\":true}");
        var again = new WebClient(port);
        assertThat(WebClient.location(again.login(player.email(), Players.PASSWORD))).isEqualTo("/dashboard/developer.php");
        assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", personal), 401, "Token inválido o revocado");
        // the person's own download lists it (not who placed it)
        JsonNode listed = json(again.get("/cuenta/datos")).get("sanciones");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).propertyNames()).containsExactly("id", "motivo", "hasta", "client_id", "creada",
                "levantada", "en_vigor");
        assertThat(listed.get(0).get("motivo").asString()).isEqualTo("Insultos en el chat");
        assertThat(listed.get(0).get("hasta").asString()).isEqualTo(hasta.toString());
        assertThat(listed.get(0).get("levantada").isNull()).isFalse();
        assertThat(listed.get(0).get("en_vigor").asBoolean()).isFalse();
        assertThat(post(LIFT, form("id", sancion.get("id").asString()), players.gestionToken(admin)).body())
                .as("lifting again changes nothing").isEqualTo("{\"ok\":true}");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'SANCTION_LIFTED' and subject like ?",
                Long.class, "sanción #" + sancion.get("id").asLong() + " %")).isEqualTo(1);
    }

    @Test
    void anOwnerSanctionsInTheirOwnApplicationsBySessionGestionTokenAndServerTokenAndNowhereElse() {
        Person owner = players.person(Role.DEVELOPER_API, "Dueña");
        Person other = players.person(Role.DEVELOPER_API, "Otro");
        var mine = players.webApp(owner);
        var theirs = players.webApp(other);
        Person cheater = players.person(Role.USER, "Tramposo");
        String id = Long.toString(cheater.id());

        // a session with its CSRF token
        WebClient session = players.browser(owner);
        String csrf = session.csrfFrom("/dashboard/developer.php");
        HttpResponse<String> bySession = session.postForm(CREATE, form("usuario_id", id, "motivo", "Aimbot",
                "hasta", "2099-01-01T00:00:00+01:00", "client_id", mine.clientId(), "_csrf", csrf));
        assertThat(bySession.statusCode()).as(bySession.body()).isEqualTo(200);
        assertThat(json(bySession).at("/sancion/hasta").asString()).isEqualTo("2098-12-31T23:00:00Z");
        assertThat(json(bySession).at("/sancion/client_id").asString()).isEqualTo(mine.clientId());
        assertApiError(session.postForm(CREATE, form("usuario_id", id, "motivo", "Aimbot", "_csrf", csrf)), 403,
                "Permiso denegado");
        assertApiError(session.postForm(CREATE, form("usuario_id", id, "motivo", "Aimbot", "client_id", theirs.clientId(),
                "_csrf", csrf)), 403, "Permiso denegado");
        assertApiError(session.postForm(CREATE, form("usuario_id", id, "motivo", "Aimbot", "client_id", mine.clientId())),
                403, "Token CSRF inválido");

        // a personal gestion token
        String gestion = players.gestionToken(owner);
        long byToken = sanctionId(post(CREATE, form("usuario_id", id, "motivo", "Wallhack", "client_id", mine.clientId()),
                gestion));
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "Wallhack"), gestion), 403, "Permiso denegado");
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x", "client_id", theirs.clientId()), gestion), 403,
                "Permiso denegado");

        // the game's back end, with its servidor application's own token: in its owner's applications only
        Players.Server backEnd = players.server(owner);
        String server = backEnd.bearer();
        long byServer = sanctionId(post(CREATE, form("usuario_id", id, "motivo", "Speedhack detectado por el servidor",
                "hasta", "2099-06-01T00:00:00Z", "client_id", mine.clientId()), server));
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x"), server), 403, "Permiso denegado");
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x", "client_id", theirs.clientId()), server), 403,
                "Permiso denegado");
        assertThat(jdbc.queryForObject("select actor from audit_events where event = 'SANCTION_PLACED' and subject like ?",
                String.class, "sanción #" + byServer + " %")).isEqualTo(backEnd.clientId());
        assertThat(post(LIFT, form("id", Long.toString(byToken)), server).body()).isEqualTo("{\"ok\":true}");

        // the other owner neither sees nor lifts them; an admin sees all three
        assertApiError(post(LIFT, form("id", Long.toString(byServer)), players.gestionToken(other)), 404,
                "Sanción no encontrada");
        assertThat(new WebClient(port).get(LIST + "?usuario_id=" + id, "Authorization", players.gestionToken(other)).body())
                .isEqualTo("{\"ok\":true,\"sanciones\":[]}");
        JsonNode seen = json(new WebClient(port).get(LIST + "?usuario_id=" + id, "Authorization", server)).get("sanciones");
        assertThat(seen).hasSize(3);
        assertThat(seen.get(0).get("id").asLong()).isEqualTo(byServer);
        assertThat(seen.get(0).propertyNames()).containsExactly("id", "usuario_id", "motivo", "hasta", "client_id",
                "creada", "levantada", "en_vigor");
        assertThat(seen.get(0).get("en_vigor").asBoolean()).isTrue();
        assertThat(seen.get(1).get("id").asLong()).isEqualTo(byToken);
        assertThat(seen.get(1).get("en_vigor").asBoolean()).isFalse();
        assertThat(seen.get(1).get("levantada").isNull()).isFalse();
        assertThat(seen.get(0).get("levantada").isNull()).isTrue();
        assertThat(json(new WebClient(port).get(LIST + "?usuario_id=" + id, "Authorization",
                players.gestionToken(players.admin()))).get("sanciones")).hasSize(3);
    }

    @Test
    void everyoneElseIsRefusedInTheApiShape() {
        Person dev = players.person(Role.DEVELOPER_API, "Dev");
        var app = players.webApp(dev);
        Person user = players.person(Role.USER, "Usuaria");
        Map<String, String> fields = form("usuario_id", Long.toString(dev.id()), "motivo", "x", "client_id", app.clientId());

        assertApiError(new WebClient(port).postForm(CREATE, fields), 401, "Sesión no iniciada");
        assertApiError(post(CREATE, fields, "Bearer " + "0".repeat(64)), 401, "Token inválido o revocado");
        assertApiError(post(CREATE, fields, players.perfilToken(dev)), 403, "Permiso denegado");
        assertApiError(post(CREATE, fields, players.accessToken(players.browser(user), app)), 403, "Permiso denegado");
        WebClient userSession = players.browser(user);
        Map<String, String> withCsrf = new LinkedHashMap<>(fields);
        withCsrf.put("_csrf", userSession.csrfFrom("/cuenta/"));
        assertApiError(userSession.postForm(CREATE, withCsrf), 403, "Permiso denegado");
        assertApiError(new WebClient(port).get(LIST, "Authorization", players.perfilToken(dev)), 403, "Permiso denegado");
        assertApiError(post(LIFT, form("id", "1"), players.perfilToken(dev)), 403, "Permiso denegado");
        assertThat(jdbc.queryForObject("select count(*) from sanctions where user_id = ?", Long.class, dev.id())).isZero();
    }

    @Test
    void badFieldsAreRefusedNamingTheField() {
        Person admin = players.admin();
        String auth = players.gestionToken(admin);
        Person dev = players.person(Role.DEVELOPER_API, "Dev");
        var app = players.webApp(dev);
        String id = Long.toString(dev.id());
        var server = clients.register(dev.id(), "Servidor", null, java.util.List.of(), ClientType.SERVER);

        assertApiError(post(CREATE, form("motivo", "x"), auth), 400, "Falta el parámetro usuario_id");
        assertApiError(post(CREATE, form("usuario_id", "doce", "motivo", "x"), auth), 400, "usuario_id inválido");
        assertApiError(post(CREATE, form("usuario_id", id), auth), 400, "Falta el parámetro motivo");
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "   "), auth), 400, "Falta el parámetro motivo");
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "m".repeat(201)), auth), 400,
                "motivo demasiado largo (máximo 200 caracteres)");
        assertThat(post(CREATE, form("usuario_id", id, "motivo", "😀".repeat(200), "hasta", "2099-01-01T00:00:00Z"),
                auth).statusCode()).as("200 characters, 400 UTF-16 units").isEqualTo(200);
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "una\nlínea"), auth), 400,
                "motivo inválido: sin caracteres de control");
        for (String hasta : new String[] { "", "mañana", "2099-01-01", "2099-01-01T00:00:00", "2001-01-01T00:00:00Z",
                "+10000-01-01T00:00:00Z" }) {
            assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x", "hasta", hasta), auth), 400, "hasta inválido");
        }
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x", "hasta", iso(clock.instant().minusSeconds(1))),
                auth), 400, "hasta inválido");
        assertApiError(post(CREATE, form("usuario_id", "999999999", "motivo", "x"), auth), 404, "Usuario no encontrado");
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x", "client_id", "no-existe"), auth), 404,
                "Aplicación no encontrada");
        assertApiError(post(CREATE, form("usuario_id", id, "motivo", "x", "client_id", server.clientId()), auth), 400,
                "client_id inválido: una aplicación de tipo servidor no tiene jugadores");
        assertApiError(post(CREATE, form("usuario_id", Long.toString(admin.id()), "motivo", "x"), auth), 409,
                "No puedes sancionarte a ti mismo");
        assertApiError(new WebClient(port).postRaw(CREATE, "usuario_id=" + id + "&motivo=a&motivo=b", "Authorization", auth),
                400, "Parámetro repetido: motivo");
        assertApiError(post(LIFT, form(), auth), 400, "Falta el parámetro id");
        assertApiError(post(LIFT, form("id", "x"), auth), 400, "id inválido");
        assertApiError(post(LIFT, form("id", "999999999"), auth), 404, "Sanción no encontrada");
        assertApiError(new WebClient(port).get(LIST + "?usuario_id=999999999", "Authorization", auth), 404,
                "Usuario no encontrado");
        assertApiError(new WebClient(port).get(LIST + "?usuario_id=x", "Authorization", auth), 400, "usuario_id inválido");
        assertApiError(new WebClient(port).get(LIST + "?size=0", "Authorization", auth), 400,
                "size inválido (un número de 1 a 200)");
        assertThat(post(CREATE, form("usuario_id", id, "motivo", "x", "client_id", app.clientId(), "hasta",
                "2099-01-01T00:00:00Z"), auth).statusCode()).isEqualTo(200);
    }

    @Test
    void theListWithoutAPersonIsPagedNewestFirst() {
        Person owner = players.person(Role.DEVELOPER_API, "Paginas");
        var app = players.webApp(owner);
        String auth = players.gestionToken(owner);
        long[] ids = new long[3];
        for (int i = 0; i < 3; i++) {
            Person player = players.person(Role.USER, "P" + i);
            ids[i] = sanctionId(post(CREATE, form("usuario_id", Long.toString(player.id()), "motivo", "m" + i,
                    "client_id", app.clientId()), auth));
        }
        HttpResponse<String> first = new WebClient(port).get(LIST + "?size=2", "Authorization", auth);
        assertThat(json(first).get("sanciones").valueStream().map(s -> s.get("id").asLong()).toList())
                .containsExactly(ids[2], ids[1]);
        assertThat(first.headers().firstValue("Link")).hasValue("</api/sanciones/list.php?page=2&size=2>; rel=\"next\"");
        HttpResponse<String> second = new WebClient(port).get(LIST + "?size=2&page=2", "Authorization", auth);
        assertThat(json(second).get("sanciones").valueStream().map(s -> s.get("id").asLong()).toList()).containsExactly(ids[0]);
        assertThat(second.headers().firstValue("Link")).hasValue("</api/sanciones/list.php?page=1&size=2>; rel=\"prev\"");
    }

    @Test
    void aSanctionEndsByItselfAtItsHastaOnEveryCheck() {
        Person player = players.person(Role.USER, "Temporal");
        Instant hasta = clock.instant().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        sanctionId(post(CREATE, form("usuario_id", Long.toString(player.id()), "motivo", "Una hora fuera",
                "hasta", hasta.toString()), players.gestionToken(players.admin())));
        assertThat(WebClient.location(new WebClient(port).login(player.email(), Players.PASSWORD)))
                .isEqualTo("/login/?suspendida=1");

        clock.advance(Duration.between(clock.instant(), hasta).plusSeconds(1));

        assertThat(WebClient.location(new WebClient(port).login(player.email(), Players.PASSWORD))).isEqualTo("/");
        JsonNode listed = json(new WebClient(port).get(LIST + "?usuario_id=" + player.id(), "Authorization",
                players.gestionToken(players.admin()))).get("sanciones").get(0);
        assertThat(listed.get("en_vigor").asBoolean()).isFalse();
        assertThat(listed.get("levantada").isNull()).isTrue();
        // one that has ended is not lifted: nothing to lift (the job tells its end)
        assertThat(post(LIFT, form("id", listed.get("id").asString()), players.gestionToken(players.admin())).body())
                .isEqualTo("{\"ok\":true}");
        assertThat(json(new WebClient(port).get(LIST + "?usuario_id=" + player.id(), "Authorization",
                players.gestionToken(players.admin()))).get("sanciones").get(0).get("levantada").isNull()).isTrue();
    }
}
