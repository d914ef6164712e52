package com.example.identity.registration;

import java.io.Serial;
import java.io.Serializable;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;

/**
 * A sign-up that another provider's login started (decisions §19, D38): that provider gave no address (Steam
 * never does), or one it did not verify (D44: no account is made on such an address, Microsoft's among them), so
 * {@code /registro} asks for one (the provider's, if any, already typed; a name, no password) and mails the same
 * single-use link as any sign-up; the link creates the account (address proved, no password of its own) with the
 * identity linked and logs it in. Federation/ hands the identity over in the session ({@link #begin}) and links it through
 * {@link Links}, which it implements, so this package imports nothing of federation/.
 */
@Component
public class IdentitySignUp {

    static final String SESSION = "identity.registration.identity";

    /**
     * The identity waiting for an address: provider id and name, its subject, a name it gave, the authorization
     * request, and the address it gave without verifying it (null when it gave none).
     */
    public record Identity(String provider, String providerName, String subject, @Nullable String name,
            @Nullable String redirect, @Nullable String unverifiedEmail) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        /** An identity that gave no address. */
        public Identity(String provider, String providerName, String subject, @Nullable String name,
                @Nullable String redirect) {
            this(provider, providerName, subject, name, redirect, null);
        }

        @Override
        public String toString() {
            return "Identity[" + provider + "]";
        }
    }

    /** Links an identity to an account (federation/LinkedIdentities). */
    public interface Links {

        /** @return false when that identity is already linked (to any account) */
        boolean link(long userId, String provider, String subject);
    }

    private final RegistrationSettings settings;

    IdentitySignUp(RegistrationSettings settings) {
        this.settings = settings;
    }

    /** Whether a sign-up can be offered ({@code identity.registration.enabled}). */
    public boolean offered() {
        return settings.enabled();
    }

    /** Keeps the identity in the session; returns the sign-up page to send the browser to. */
    public String begin(HttpServletRequest request, Identity identity) {
        request.getSession().setAttribute(SESSION, identity);
        return Endpoints.REGISTRATION;
    }

    static @Nullable Identity of(HttpServletRequest request) {
        var session = request.getSession(false);
        return session != null && session.getAttribute(SESSION) instanceof Identity identity ? identity : null;
    }

    static void forget(HttpServletRequest request) {
        var session = request.getSession(false);
        if (session != null) {
            session.removeAttribute(SESSION);
        }
    }
}
