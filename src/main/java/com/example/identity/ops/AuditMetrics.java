package com.example.identity.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

import com.example.identity.audit.AuditEvent;

/**
 * Counts logins and revocations from the audit events the features already publish (no change to the
 * features), once their work has committed: {@code identity_logins_total{outcome}} (success, failure,
 * locked) and {@code identity_revocations_total{kind}} (api_token: one token revoked by its owner or an
 * admin; client: an application revoked with its tokens; code_reuse: a replayed code and the tokens issued
 * from it; refresh_reuse: a replayed refresh token and its family; oauth_revocation: a token revoked by its
 * application at /oauth/revoke.php).
 */
@Component
class AuditMetrics {

    static final String LOGINS = "identity.logins";
    static final String REVOCATIONS = "identity.revocations";

    private final Counter loginSucceeded;
    private final Counter loginFailed;
    private final Counter loginLocked;
    private final Counter tokenRevoked;
    private final Counter clientRevoked;
    private final Counter codeReuse;
    private final Counter refreshReuse;
    private final Counter oauthRevocation;

    AuditMetrics(MeterRegistry registry) {
        loginSucceeded = login(registry, "success");
        loginFailed = login(registry, "failure");
        loginLocked = login(registry, "locked");
        tokenRevoked = revocation(registry, "api_token");
        clientRevoked = revocation(registry, "client");
        codeReuse = revocation(registry, "code_reuse");
        refreshReuse = revocation(registry, "refresh_reuse");
        oauthRevocation = revocation(registry, "oauth_revocation");
    }

    private static Counter login(MeterRegistry registry, String outcome) {
        return Counter.builder(LOGINS).description("Login form attempts by outcome").tag("outcome", outcome)
                .register(registry);
    }

    private static Counter revocation(MeterRegistry registry, String kind) {
        return Counter.builder(REVOCATIONS).description("Revocations by kind").tag("kind", kind).register(registry);
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(AuditEvent event) {
        Counter counter = switch (event.type()) {
            case LOGIN_SUCCEEDED -> loginSucceeded;
            case LOGIN_FAILED -> loginFailed;
            case LOGIN_LOCKED -> loginLocked;
            case TOKEN_REVOKED -> tokenRevoked;
            case CLIENT_REVOKED -> clientRevoked;
            case CODE_REUSE_DETECTED -> codeReuse;
            case REFRESH_REUSE_DETECTED -> refreshReuse;
            case TOKEN_REVOKED_BY_CLIENT -> oauthRevocation;
            default -> null;
        };
        if (counter != null) {
            counter.increment();
        }
    }
}
