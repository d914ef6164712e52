package com.example.identity;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class RenamedSettingsTest {

    private static StandardEnvironment environment(Map<String, Object> properties) {
        var environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }

    @Test
    void anOldNameStopsTheStartNamingTheNewOne() {
        var environment = environment(Map.of("identity.webhooks.allow-http", "true"));
        assertThatThrownBy(() -> new RenamedSettings().postProcessEnvironment(environment, new SpringApplication()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Renamed settings (docs/operations.md): identity.webhooks.allow-http is now "
                        + "identity.outbound.allow-loopback. Set the new name instead.");
    }

    @Test
    void theEnvironmentVariableFormIsFoundToo() {
        var environment = environment(Map.of("IDENTITY_WEBHOOKS_TIMEOUT", "5s"));
        environment.getPropertySources().remove("test");
        environment.getPropertySources().addFirst(new org.springframework.core.env.SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME + "-test",
                Map.of("IDENTITY_WEBHOOKS_TIMEOUT", "5s")));
        assertThatThrownBy(() -> new RenamedSettings().postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("identity.webhooks.timeout is now identity.outbound.timeout");
    }

    @Test
    void theNewNamesPass() {
        var environment = environment(Map.of("identity.outbound.allow-loopback", "true", "identity.outbound.timeout", "5s"));
        assertThatCode(() -> new RenamedSettings().postProcessEnvironment(environment, new SpringApplication()))
                .doesNotThrowAnyException();
    }
}
