package com.example.identity.backchannel;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import com.example.identity.client.ClientDirectory;
import com.example.identity.oauth.store.SessionAuthorizations;

/**
 * Which applications were logged in, with OpenID Connect, in which login session: the {@code sid} kept with the
 * code (V54), asked of oauth/ ({@link SessionAuthorizations}), with each application's back-channel logout address
 * asked of client/ ({@link ClientDirectory}). Read when the session ends ({@link SessionEndedListener}). The rows follow the authorizations' retention
 * (a day after the code expired, or while a refresh token lives): a session that ends later than that is not told
 * to an application whose code was used without a refresh token (docs/oauth-oidc.md). The code exchange keeps them
 * for applications with a back-channel logout URI only; others' go with their exchange (decisions D48).
 */
@Component
class LogoutSessions {

    /** One application to tell that session {@code sid} of {@code userId} ended, at {@code uri}. */
    record ToTell(String clientId, String uri, long userId, String sid) {
    }

    private final SessionAuthorizations authorizations;
    private final ClientDirectory clients;

    LogoutSessions(SessionAuthorizations authorizations, ClientDirectory clients) {
        this.authorizations = authorizations;
        this.clients = clients;
    }

    /**
     * The applications given a code of scope {@code openid} in session {@code sid} (its id_tokens carry that sid) that
     * have a back-channel logout URI: one each, not revoked. A code never exchanged means a logout token the
     * application ignores (Back-Channel Logout 1.0 §2.6: no session of that sid there).
     */
    List<ToTell> endSession(String sid) {
        List<SessionAuthorizations.Authorized> given = authorizations.inSession(sid);
        Map<String, String> uris = clients.backChannelLogoutUris(given.stream().map(SessionAuthorizations.Authorized::clientId)
                .distinct().toList());
        return given.stream().filter(a -> uris.containsKey(a.clientId()))
                .map(a -> new ToTell(a.clientId(), uris.get(a.clientId()), a.userId(), sid)).toList();
    }
}
