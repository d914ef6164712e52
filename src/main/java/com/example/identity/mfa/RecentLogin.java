package com.example.identity.mfa;

import java.time.Clock;
import java.time.Instant;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

import com.example.identity.account.LoginFactors;

/**
 * Whether the user of a session proved who they are recently (decisions §17): adding a passkey, a new way into
 * the account, wants more than a session that may have been left open or whose cookie was stolen. Recent is
 * within {@code identity.mfa.recent-login} (10 minutes) of the session's last proof: a factor of its login
 * (the password, a passkey, a TOTP code; account/LoginFactors) or the password typed again at
 * {@code /cuenta/seguridad} ({@link #passwordConfirmed}, kept in the session, so on every instance).
 */
@Component
public class RecentLogin {

    static final String CONFIRMED = "identity.mfa.password-confirmed-at";

    private final MfaSettings settings;
    private final Clock clock;

    RecentLogin(MfaSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Whether {@code user}, the authentication of this request's session, proved who they are recently. */
    public boolean isRecent(HttpServletRequest request, Authentication user) {
        Instant last = LoginFactors.lastProofTime(user);
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(CONFIRMED) instanceof Instant confirmed
                && (last == null || confirmed.isAfter(last))) {
            last = confirmed;
        }
        return isRecent(last);
    }

    private boolean isRecent(@Nullable Instant proof) {
        return proof != null && !proof.plus(settings.recentLogin()).isBefore(clock.instant());
    }

    /** The user typed the account's password again just now. */
    public void passwordConfirmed(HttpServletRequest request) {
        request.getSession().setAttribute(CONFIRMED, clock.instant());
    }
}
