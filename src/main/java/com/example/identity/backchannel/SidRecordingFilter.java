package com.example.identity.backchannel;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import jakarta.servlet.http.HttpSession;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.crypto.Secrets;
import com.example.identity.session.SessionEnded;

/**
 * Around the authorization endpoint (outside Spring Security's chain, inside Spring Session's): when it redirects
 * with a code, the login session gets a {@code sid} (a session attribute, {@link SessionEnded#SID}; made at its first
 * authorization, the same for the session's whole life) and the code's authorization is recorded under it
 * ({@link LogoutSessions}), before the redirect leaves, so the code's exchange finds it. Nothing in oauth/ changes.
 */
class SidRecordingFilter extends OncePerRequestFilter {

    private final JdbcTemplate jdbc;
    private final LogoutSessions sessions;

    SidRecordingFilter(JdbcTemplate jdbc, LogoutSessions sessions) {
        this.jdbc = jdbc;
        this.sessions = sessions;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void sendRedirect(String location) throws IOException {
                record(request, location);
                super.sendRedirect(location);
            }
        });
    }

    private void record(HttpServletRequest request, String location) {
        String code;
        try {
            code = UriComponentsBuilder.fromUriString(location).build().getQueryParams().getFirst("code");
        }
        catch (IllegalArgumentException e) {
            return;
        }
        HttpSession session = request.getSession(false);
        if (code == null || session == null) {
            return;
        }
        record Authorization(String id, long userId, String clientId, String scopes) {
        }
        List<Authorization> found = jdbc.query("select id, user_id, client_id, scopes from oauth_authorizations "
                + "where code_digest = ?",
                (rs, i) -> new Authorization(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4)),
                Secrets.sha256Hex(java.net.URLDecoder.decode(code, java.nio.charset.StandardCharsets.UTF_8)));
        // only a code whose exchange issues an id_token (scope openid)
        if (found.isEmpty() || !java.util.Arrays.asList(found.get(0).scopes().split(" ")).contains("openid")) {
            return;
        }
        String sid = session.getAttribute(SessionEnded.SID) instanceof String known ? known : null;
        if (sid == null) {
            sid = LogoutSessions.newSid();
            session.setAttribute(SessionEnded.SID, sid);
        }
        Authorization authorization = found.get(0);
        sessions.recordAuthorization(authorization.id(), sid, authorization.userId(), authorization.clientId());
    }
}
