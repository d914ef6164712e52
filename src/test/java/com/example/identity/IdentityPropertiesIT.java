package com.example.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** A bad {@code identity.*} setting stops the start with the property's name and the reason. */
@ExtendWith(OutputCaptureExtension.class)
class IdentityPropertiesIT {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "identity.issuer=http://localhost:8080/ | identity.issuer | without a trailing slash",
            "identity.issuer=not a url | identity.issuer | absolute http or https URL",
            "identity.issuer=https://id.example.com?x=1 | identity.issuer | without a trailing slash, query",
            "identity.issuer=ftp://example.com | identity.issuer | absolute http or https URL",
            "identity.authorization-code.ttl=15m | identity.authorizationCode.ttl | between 1s and 10m",
            "identity.access-token.ttl=0s | identity.accessToken.ttl | between 1m and 1d",
            "identity.bootstrap-admin.email=not-an-email | identity.bootstrapAdmin.email | well-formed email address",
            "identity.trusted-proxies=10.0.0.0/33 | identity.trustedProxies | IPv4 or IPv6 address or CIDR block",
            "identity.trusted-proxies=proxy.example.com | identity.trustedProxies | IPv4 or IPv6 address or CIDR block",
            "identity.rate-limit.unknown-tokens-per-minute=0 | identity.rateLimit.unknownTokensPerMinute | greater than or equal to 1",
            "identity.mfa.required-roles=admin,developer | identity.mfa.requiredRoles | must be a role: user, developer_api or admin",
            "identity.mfa.required-roles=Admin | identity.mfa.requiredRoles | must be a role: user, developer_api or admin",
            "identity.tickets.ttl=301s | identity.tickets.ttl | must be between 1s and 300s",
            "identity.tickets.ttl=0s | identity.tickets.ttl | must be between 1s and 300s",
            "identity.sanctions.end-check=0s | identity.sanctions.endCheck | must be between 1s and 1h",
            "identity.sanctions.end-check=2h | identity.sanctions.endCheck | must be between 1s and 1h",
            "identity.minors.consent-age=12 | identity.minors.consentAge | must be greater than or equal to 13",
            "identity.minors.consent-age=17 | identity.minors.consentAge | must be less than or equal to 16",
    })
    void badSettingStopsTheStartNamingTheProperty(String setting, String property, String reason, CapturedOutput output) {
        assertThatThrownBy(() -> start(setting)).isInstanceOf(Exception.class);
        if (property.equals("identity.mfa.requiredRoles")) {
            // the misspelt role itself is named
            String typo = setting.substring(setting.lastIndexOf(',') + 1).replace("identity.mfa.required-roles=", "");
            assertThat(output.getAll()).contains("Value: \"" + typo + "\"");
        }

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START")
                .contains("Property: " + property)
                .contains("Reason: ")
                .contains(reason);
    }

    @Test
    void issuerWithPathAndPortIsAccepted() {
        try (var context = start("identity.issuer=https://id.example.com:8443/auth")) {
            assertThat(context.getBean(IdentityProperties.class).issuerUrl()).isEqualTo("https://id.example.com:8443/auth");
        }
    }

    @Test
    void theRecommendedSecondFactorRolesAreAccepted() {
        try (var context = start("identity.demo-data=false", "identity.mfa.required-roles=admin, developer_api")) {
            var mfa = context.getBean(com.example.identity.mfa.MfaSettings.class);
            assertThat(mfa.requiredRoles()).containsExactlyInAnyOrder("admin", "developer_api");
            assertThat(mfa.requiredFor("admin")).isTrue();
            assertThat(mfa.requiredFor("user")).isFalse();
        }
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        try (var context = start("identity.demo-data=false")) {
            var properties = context.getBean(IdentityProperties.class);
            assertThat(properties.issuerUrl()).isEqualTo("http://localhost:8080");
            assertThat(properties.authorizationCode().ttl()).hasMinutes(10);
            assertThat(properties.accessToken().ttl()).hasHours(1);
            assertThat(properties.signingKey().location()).isNull();
            assertThat(context.getBean(com.example.identity.oauth.token.TicketSettings.class).ttl()).hasSeconds(60);
        }
    }

    static ConfigurableApplicationContext start(String... settings) {
        String[] all = new String[settings.length + 3];
        all[0] = "--server.port=0";
        all[1] = "--spring.datasource.url=jdbc:h2:mem:props-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        all[2] = "--logging.level.root=WARN";
        for (int i = 0; i < settings.length; i++) {
            settings[i] = "--" + settings[i];
        }
        System.arraycopy(settings, 0, all, 3, settings.length);
        return new SpringApplicationBuilder(IdentityApplication.class).run(all);
    }
}
