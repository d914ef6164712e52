package com.example.identity.abuse;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import com.example.identity.account.PasswordChanged;
import com.example.identity.account.PasswordCheckFailed;
import com.example.identity.audit.AuditEvent;

/**
 * The account's forms that prove a password, counted by the {@link LoginThrottle} as logins from the request's
 * address: a wrong current password as a failure, a changed password as a success. The account feature publishes
 * the events ({@link PasswordCheckFailed}, {@link PasswordChanged}) and knows nothing of the throttle; an event
 * published outside a request (none today) counts nothing.
 */
@Component
class LoginThrottleAccountEvents {

    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;

    LoginThrottleAccountEvents(LoginThrottle throttle, ApplicationEventPublisher events) {
        this.throttle = throttle;
        this.events = events;
    }

    /**
     * A wrong current password at a form that confirms a change with it (the password, the e-mail address,
     * the second factor, a new passkey): a failed login of that account from here.
     */
    @EventListener
    void onPasswordCheckFailed(PasswordCheckFailed event) {
        HttpServletRequest request = currentRequest();
        if (request != null && throttle.recordFailure(request, event.correo())) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_LOCKED, null, event.correo()));
        }
    }

    /** A password changed, proving the current one: as a successful login of that account from here. */
    @EventListener
    void onPasswordChanged(PasswordChanged event) {
        HttpServletRequest request = currentRequest();
        if (request != null) {
            throttle.recordSuccess(request, event.correo());
        }
    }

    private static HttpServletRequest currentRequest() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                ? attributes.getRequest() : null;
    }
}
