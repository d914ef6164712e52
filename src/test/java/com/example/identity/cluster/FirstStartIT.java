package com.example.identity.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.support.Cluster;
import com.example.identity.support.WebClient;
import com.nimbusds.jose.jwk.JWKSet;

/**
 * Three instances started together on an empty PostgreSQL database (decisions §13): one schema
 * migration, one set of first accounts, one signing key, and all three start and serve.
 */
class FirstStartIT {

    @Test
    void threeInstancesStartedTogetherOnAnEmptyDatabaseMakeOneKeyAndOneSetOfAccounts() throws Exception {
        Assumptions.assumeTrue(Cluster.onPostgres(), "FirstStartIT needs PostgreSQL (SPRING_DATASOURCE_URL): "
                + "the embedded H2 database serves one instance only; TwoInstancesIT covers two contexts on H2");
        try (Cluster cluster = Cluster.onFreshPostgres(3)) {
            JdbcTemplate jdbc = cluster.bean(0, JdbcTemplate.class);
            assertThat(jdbc.queryForObject("select count(*) from signing_keys", Integer.class)).isEqualTo(1);
            assertThat(jdbc.queryForList("select correo from users order by correo", String.class))
                    .containsExactly("admin@example.com", "dev@example.com", "user@example.com");
            assertThat(jdbc.queryForObject("select count(*) from oauth_clients", Integer.class)).isEqualTo(1);
            assertThat(jdbc.queryForObject("select count(*) from flyway_schema_history where not success", Integer.class))
                    .isZero();
            assertThat(jdbc.queryForObject("select count(*) - count(distinct version) from flyway_schema_history",
                    Integer.class)).as("each migration applied once").isZero();
            Set<String> jwks = new HashSet<>();
            for (int node = 0; node < cluster.size(); node++) {
                var web = new WebClient(cluster.port(node));
                jwks.add(JWKSet.parse(web.get("/oauth/jwks.json").body()).toString());
                assertThat(WebClient.location(web.login("dev@example.com", "dev-demo-password")))
                        .isEqualTo("/dashboard/developer.php");
            }
            assertThat(jwks).as("every instance publishes the same single key").hasSize(1);
        }
    }
}
