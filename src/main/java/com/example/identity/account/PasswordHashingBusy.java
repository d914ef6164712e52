package com.example.identity.account;

import org.springframework.security.authentication.AuthenticationServiceException;

/**
 * More password hashes are waiting than the cores finish in about two seconds: this one is refused at
 * once instead of making every login wait longer. Answered 503 with {@code Retry-After} (the login form's
 * failure handler; {@code web/} for the other pages and for JSON). An {@code AuthenticationServiceException}
 * so that Spring Security hands it to the login's failure handler.
 */
public class PasswordHashingBusy extends AuthenticationServiceException {

    /** Seconds a client is told to wait before trying again. */
    public static final int RETRY_AFTER_SECONDS = 2;

    PasswordHashingBusy() {
        super("password hashing queue full");
    }

    /** Whether {@code failure} or its cause is this (Spring Security wraps it when the e-mail is unknown). */
    public static boolean isCauseOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PasswordHashingBusy) {
                return true;
            }
        }
        return false;
    }
}
