package com.example.identity.training;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.client.ClientService;
import com.example.identity.support.IntegrationTest;

/**
 * The training run of {@code bin/identity-service prepare} (issue 32) against the running service: every flow it
 * sends (password logins, the web application's code flow with its exchange and both UserInfo endpoints, the native
 * application's PKCE flow and refresh) succeeds, so the class cache is trained on the hot paths and not on error
 * pages. The run's exit is the launcher's business (it is the JVM's exit that writes the cache): here the traffic is
 * run without it.
 */
@IntegrationTest
class TrainingRunIT {

    @Autowired
    WebServerApplicationContext context;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void everyTrainingFlowSucceeds() {
        var run = new TrainingRun(context, new TrainingSettings(true, Duration.ofSeconds(3)), accounts, clients);

        TrainingRun.Result result = run.train();

        assertThat(result.failures()).as("failed training flows").isZero();
        assertThat(result.flows()).as("completed training flows").isPositive();
        // the native application's flow ran too: its refresh tokens were issued and rotated
        assertThat(jdbc.queryForObject("select count(*) from refresh_tokens r join oauth_clients c "
                + "on c.client_id = r.client_id where c.name = 'Entrenamiento nativa' and r.rotated_at is not null",
                Integer.class)).isPositive();
    }

    @Test
    void theRunIsOffUnlessTheLauncherAsksForIt() {
        assertThat(context.getBeanNamesForType(TrainingRun.class)).isEmpty();
    }
}
