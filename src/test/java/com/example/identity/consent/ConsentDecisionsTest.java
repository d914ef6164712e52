package com.example.identity.consent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpSession;

/** The consent page's approval lets exactly the approved authorization request through, once, for a few minutes. */
class ConsentDecisionsTest {

    static final Instant NOW = Instant.parse("2025-01-10T08:00:00Z");
    static final String REQUEST = "/oauth/authorize.php?client_id=juego&scope=openid%20offline_access&state=a1";

    final MockHttpSession session = new MockHttpSession();

    @Test
    void anApprovedRequestIsLetThroughOnceThenForgotten() {
        ConsentDecisions.remember(session, REQUEST, NOW);
        assertThat(ConsentDecisions.consume(session, REQUEST, NOW.plusSeconds(5))).isTrue();
        assertThat(ConsentDecisions.consume(session, REQUEST, NOW.plusSeconds(6))).isFalse();
    }

    @Test
    void anotherRequestCannotRideOnTheApproval() {
        ConsentDecisions.remember(session, REQUEST, NOW);
        assertThat(ConsentDecisions.consume(session, REQUEST.replace("state=a1", "state=a2"), NOW)).isFalse();
        assertThat(ConsentDecisions.consume(session, REQUEST, NOW)).as("still there for its own request").isTrue();
    }

    @Test
    void anApprovalLastsLessThanTenMinutes() {
        ConsentDecisions.remember(session, REQUEST, NOW);
        assertThat(ConsentDecisions.consume(session, REQUEST, NOW.plus(ConsentDecisions.LIFETIME))).isFalse();

        ConsentDecisions.remember(session, REQUEST, NOW);
        assertThat(ConsentDecisions.consume(session, REQUEST, NOW.plus(Duration.ofMinutes(10)).minusMillis(1))).isTrue();
    }

    @Test
    void noSessionMeansNoApproval() {
        assertThat(ConsentDecisions.consume(null, REQUEST, NOW)).isFalse();
        assertThat(ConsentDecisions.consume(new MockHttpSession(), REQUEST, NOW)).isFalse();
    }

    @Test
    void theSessionKeepsTheSixteenNewestApprovalsOnly() {
        for (int i = 0; i <= ConsentDecisions.MAX; i++) {
            ConsentDecisions.remember(session, REQUEST + i, NOW.plusSeconds(i));
        }
        Instant later = NOW.plusSeconds(30);
        assertThat(ConsentDecisions.consume(session, REQUEST + 0, later)).as("the oldest of 17").isFalse();
        for (int i = 1; i <= ConsentDecisions.MAX; i++) {
            assertThat(ConsentDecisions.consume(session, REQUEST + i, later)).as("approval " + i).isTrue();
        }
    }

    @Test
    void theSessionStoresDigestsNotTheRequestsThemselves() {
        ConsentDecisions.remember(session, REQUEST, NOW);
        assertThat(session.getAttribute(ConsentDecisions.ATTRIBUTE)).asString().doesNotContain("client_id");
    }
}
