package com.example.identity.backchannel;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.outbox.Outbox;
import com.example.identity.session.SessionEnded;

/**
 * A login session ended (session/SessionEnded, whatever ended it): each application that got an id_token in it and
 * has a back-channel logout URI gets a logout token, through the outbox, in the transaction of whoever ended the
 * session (a new one after a plain logout). Keyed by application and person ({@code client:<id>:user:<id>}): one
 * person's logout tokens reach an application in order; an application that is down or slow delays only its own,
 * and several people's tokens to one application go out at the same time (outbox's {@code per-receiver}).
 */
@Component
class SessionEndedListener {

    private final LogoutSessions sessions;
    private final Outbox outbox;
    private final LogoutTokenDelivery delivery;

    SessionEndedListener(LogoutSessions sessions, Outbox outbox, LogoutTokenDelivery delivery) {
        this.sessions = sessions;
        this.outbox = outbox;
        this.delivery = delivery;
    }

    @EventListener
    @Transactional
    void onSessionEnded(SessionEnded event) {
        for (LogoutSessions.ToTell told : sessions.endSession(event.sid())) {
            outbox.enqueue(LogoutTokenDelivery.KIND, "client:" + told.clientId() + ":user:" + told.userId(),
                    delivery.payload(told));
        }
    }
}
