package com.example.identity.account;

import org.springframework.context.event.EventListener;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

import com.example.identity.common.AfterCommit;

/**
 * Ends every session of an account that was disabled or changed role (and, through the same event,
 * any other change that must log the user out): the rows are deleted, so the next request on any
 * instance finds no session and is sent to the login page. Deleted now and again once the change
 * commits, so that a login racing with the change cannot keep a session made before it. Other features that must
 * log a person out without changing the account (a sanction, sanctions/) call {@link #endAll}.
 */
@Component
public final class SessionTerminator {

    private final FindByIndexNameSessionRepository<? extends Session> sessions;
    private final AccountService accounts;

    SessionTerminator(FindByIndexNameSessionRepository<? extends Session> sessions, AccountService accounts) {
        this.sessions = sessions;
        this.accounts = accounts;
    }

    @EventListener
    void onAccountChanged(AccountChanged event) {
        // the address now: a deletion (AccountDeletion) takes it off the account before the commit
        endAll(event.userId());
    }

    /**
     * Ends every session of {@code userId} on every instance (the rows go, now and again when the caller's
     * transaction completes); the account itself is not changed.
     */
    public void endAll(long userId) {
        accounts.findById(userId).map(UserAccount::getCorreo).ifPresent(correo -> AfterCommit.nowAndAfterCompletion(
                () -> end(correo, null)));
    }

    /** A new password: every other session of the account ends, the one that changed it stays. */
    @TransactionalEventListener(fallbackExecution = true)
    void onPasswordChanged(PasswordChanged event) {
        end(event.correo(), event.keepSessionId());
    }

    private void end(String correo, String keepSessionId) {
        sessions.findByPrincipalName(correo).keySet().stream()
                .filter(id -> !id.equals(keepSessionId))
                .forEach(sessions::deleteById);
    }
}
