package com.example.identity.guestaccount;

import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

/**
 * The conversion a browser is in the middle of (decisions §24): the page {@code /registro?invitado=<code>} spent the
 * code ({@link Guests#redeem}) and keeps which guest it was for in the session (shared by every instance, session/),
 * so that the sign-up form sent from that page, or the "Entrar con …" buttons on it, convert that guest. It lasts
 * {@link #LIFETIME}, ends when it is used or refused, and is one per session (a second link replaces the first).
 */
public final class GuestConversion {

    /** How long the page's session keeps the conversion after the code was spent. */
    public static final Duration LIFETIME = Duration.ofHours(1);

    static final String SESSION = "identity.guest.conversion";

    /** The guest being converted in this session, and until when. */
    record Pending(long guestId, Instant until) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    private GuestConversion() {
    }

    /** This session converts guest {@code guestId} from now on (its page opened with a good code). */
    public static void begin(HttpServletRequest request, long guestId, Instant now) {
        request.getSession().setAttribute(SESSION, new Pending(guestId, now.plus(LIFETIME)));
    }

    /** The guest this session is converting, if any (and not past its time). */
    public static Optional<Long> of(HttpServletRequest request, Instant now) {
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(SESSION) instanceof Pending pending && pending.until().isAfter(now)) {
            return Optional.of(pending.guestId());
        }
        return Optional.empty();
    }

    /** The conversion is over (done, or refused: the guest stays a guest and the game asks for a new link). */
    public static void forget(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.removeAttribute(SESSION);
        }
    }
}
