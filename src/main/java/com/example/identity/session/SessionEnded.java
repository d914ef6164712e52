package com.example.identity.session;

import jakarta.servlet.http.HttpSession;

import com.example.identity.crypto.Secrets;

/**
 * Published when a login session is deleted ({@link SessionStore#deleteById}: a logout, an ended session on the
 * sessions page, an account disabled, changed or deleted, a new password), on the thread and in the transaction of
 * whoever ended it, for sessions that carry a {@link #SID} (those that logged an application in with OpenID Connect):
 * the back-channel logout (backchannel/) tells those applications. Not published for a session that expired.
 */
public record SessionEnded(String sid) {

    /** The session attribute with the session's {@code sid}, the identifier id_tokens carry (never the session id). */
    public static final String SID = "identity.session.sid";

    /**
     * The {@code sid} of a login session: made at its first OpenID Connect authorization (128 random bits, unrelated
     * to the session id) and the same for the session's whole life.
     */
    public static String sidOf(HttpSession session) {
        if (session.getAttribute(SID) instanceof String sid) {
            return sid;
        }
        String sid = Secrets.randomUrlSafe(16);
        session.setAttribute(SID, sid);
        return sid;
    }
}
