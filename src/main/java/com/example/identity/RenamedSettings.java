package com.example.identity;

import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Settings that were renamed: a start that still sets an old name stops, naming the new one, instead of silently
 * running without the operator's value (a receiver allowed on loopback that no longer is, a timeout not applied).
 * Read before anything binds, in every form Spring Boot accepts (properties, YAML, {@code IDENTITY_WEBHOOKS_TIMEOUT}).
 */
public class RenamedSettings implements EnvironmentPostProcessor {

    /** Old name → new name. */
    static final Map<String, String> RENAMED = new TreeMap<>(Map.of(
            "identity.webhooks.allow-http", "identity.outbound.allow-loopback",
            "identity.webhooks.timeout", "identity.outbound.timeout"));

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        var sources = ConfigurationPropertySources.get(environment);
        StringBuilder found = new StringBuilder();
        RENAMED.forEach((old, replacement) -> {
            var name = ConfigurationPropertyName.of(old);
            for (var source : sources) {
                if (source.getConfigurationProperty(name) != null) {
                    found.append(found.isEmpty() ? "" : "; ").append(old).append(" is now ").append(replacement);
                    break;
                }
            }
        });
        if (!found.isEmpty()) {
            throw new IllegalStateException("Renamed settings (docs/operations.md): " + found
                    + ". Set the new name instead.");
        }
    }
}
