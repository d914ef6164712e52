package com.example.identity.federation;

import java.io.Serial;
import java.io.Serializable;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.stereotype.Component;

import com.example.identity.account.LoginFactors;

/**
 * What a federated login keeps in the session (shared by every instance, session/) between its steps, and the
 * session made nobody's when the provider's login logs nobody in here. Logging an account in is
 * signin/AccountLogin's, as for the login form, with the provider's factor ({@link LoginFactors#FEDERATED_AUTHORITY}).
 */
@Component
class FederatedSession {

    /** The checked authorization request to continue after the provider's login. */
    static final String REDIRECT = "identity.federation.redirect";
    /** A logged-in person asked to link another provider ({@link LinkIntent}). */
    static final String LINK_INTENT = "identity.federation.link-intent";
    /** The state of a Steam login under way, in its {@code return_to}: its answer is accepted in this session only, once. */
    static final String STEAM_STATE = "identity.federation.steam-state";
    /** The guest a login started on its conversion page converts (decisions §24): its id, a {@code Long}. */
    static final String GUEST = "identity.federation.guest";
    /** An identity waiting for the proof of the account that has its address ({@link PendingLink}). */
    static final String PENDING_LINK = "identity.federation.pending-link";
    /** A logged-in person proving themselves again with a linked provider ({@link Reauthentication}). */
    static final String REAUTHENTICATION = "identity.federation.reauthentication";

    /** A first login whose account waits for the birth date (decisions §27, {@link PendingAccount}). */
    static final String PENDING_ACCOUNT = "identity.federation.pending-account";

    /**
     * A first login with a verified address that no account has, waiting for the birth date the provider did not
     * give (decisions §27): the account is made with it at {@code /login/fecha-nacimiento}; with {@code guestId}, that
     * guest is converted instead (decisions §24).
     */
    record PendingAccount(String provider, String providerName, String subject, String email, @Nullable String name,
            @Nullable String redirect, @Nullable Long guestId) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        /** A new account's (no guest to convert). */
        PendingAccount(String provider, String providerName, String subject, String email, @Nullable String name,
                @Nullable String redirect) {
            this(provider, providerName, subject, email, name, redirect, null);
        }

        @Override
        public String toString() {
            return "PendingAccount[" + provider + "]";
        }
    }

    /** The logged-in person who asked to link another provider, and their session's authentication. */
    record LinkIntent(long userId, Authentication authentication) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /**
     * A logged-in person (account {@code userId}) who logs in again with one of the account's linked providers to
     * prove it is them (issue 39: an account without a password of its own leaving, settings/'s
     * {@code /cuenta/eliminar}); their session's authentication, kept should the provider answer for someone else.
     */
    record Reauthentication(long userId, Authentication authentication) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /** An identity whose address belongs to account {@code userId}: linked once the person proves that account. */
    record PendingLink(String provider, String providerName, String subject, long userId, String correo,
            @Nullable String redirect) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    static @Nullable Object take(HttpServletRequest request, String name) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return null;
        }
        Object value = session.getAttribute(name);
        session.removeAttribute(name);
        return value;
    }

    static @Nullable Object peek(HttpServletRequest request, String name) {
        HttpSession session = request.getSession(false);
        return session == null ? null : session.getAttribute(name);
    }

    /** The session is nobody's (the provider's login alone logs nobody in here). */
    void anonymous(HttpServletRequest request, HttpServletResponse response) {
        var empty = SecurityContextHolder.createEmptyContext();
        SecurityContextHolder.setContext(empty);
        contexts.saveContext(empty, request, response);
    }
}
