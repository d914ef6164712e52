package com.example.identity.account;

import org.jspecify.annotations.Nullable;

/**
 * Published when an account gained a second factor (an authenticator app, a passkey), wherever it was added:
 * the login's enrolment step, {@code /cuenta/seguridad/totp}, a passkey registration. A new way into the account
 * may be an intruder's, so every other session of the account ends ({@code keepSessionId} is the session that
 * added it, which stays) and the address is told ({@code mfa/SecondFactorAddedNotice}).
 *
 * @param factor what was added, as the e-mail names it ({@link Factor})
 * @param address where the request came from, for the e-mail
 */
public record SecondFactorAdded(long userId, String correo, Factor factor, @Nullable String keepSessionId,
        @Nullable String address) {

    /** The kinds of second factor an account can gain. */
    public enum Factor {
        TOTP("una aplicación de autenticación"),
        PASSKEY("una llave de acceso");

        private final String description;

        Factor(String description) {
            this.description = description;
        }

        /** The factor as a Spanish sentence names it ("se ha añadido ..."). */
        public String description() {
            return description;
        }
    }
}
