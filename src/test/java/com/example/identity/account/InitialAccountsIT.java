package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.crypto.password.PasswordEncoder;

import com.example.identity.IdentityApplication;

/** The first administrator of an empty database without demo data. Each start gets its own H2 database. */
@ExtendWith(OutputCaptureExtension.class)
class InitialAccountsIT {

    @Test
    void withoutDemoDataAdminComesFromBootstrapSettings(CapturedOutput output) {
        try (var context = start("identity.demo-data=false",
                "identity.bootstrap-admin.email=Root@Example.org",
                "identity.bootstrap-admin.password=correct-horse-battery")) {
            var users = context.getBean(UserAccountRepository.class);
            var encoder = context.getBean(PasswordEncoder.class);

            assertThat(users.count()).isEqualTo(1);
            var admin = users.findByCorreo("root@example.org").orElseThrow();
            assertThat(admin.getRol()).isEqualTo(Role.ADMIN);
            assertThat(encoder.matches("correct-horse-battery", admin.getPasswordHash())).isTrue();
            assertThat(admin.isPasswordChangeRequired()).as("a password the operator chose").isFalse();
            assertThat(output.getAll()).doesNotContain("correct-horse-battery").doesNotContain("DEMO DATA");
        }
    }

    @Test
    void withoutAnySettingAdminGetsRandomPasswordPrintedOnce(CapturedOutput output) {
        try (var context = start("identity.demo-data=false")) {
            var users = context.getBean(UserAccountRepository.class);
            var encoder = context.getBean(PasswordEncoder.class);

            var matcher = Pattern.compile("created admin@localhost with the generated password (\\S+) ")
                    .matcher(output.getAll());
            assertThat(matcher.find()).isTrue();
            String password = matcher.group(1);
            assertThat(password).hasSizeGreaterThanOrEqualTo(24);
            var admin = users.findByCorreo("admin@localhost").orElseThrow();
            assertThat(encoder.matches(password, admin.getPasswordHash())).isTrue();
            assertThat(admin.isPasswordChangeRequired()).as("a logged password must be changed at first login").isTrue();
            assertThat(admin.getOneTimePasswordExpiresAt()).as("and does not expire: nobody else could reset it")
                    .isNull();
            assertThat(output.getAll().split(Pattern.quote(password), -1)).hasSize(2);
        }
    }

    @Test
    void demoDataIsOnByDefaultOnH2AndWarns(CapturedOutput output) {
        try (var context = start()) {
            var users = context.getBean(UserAccountRepository.class);
            assertThat(users.count()).isEqualTo(3);
            assertThat(output.getAll()).contains("DEMO DATA");
        }
    }

    private static ConfigurableApplicationContext start(String... settings) {
        String[] all = new String[settings.length + 2];
        all[0] = "--server.port=0";
        all[1] = "--spring.datasource.url=jdbc:h2:mem:initial-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        for (int i = 0; i < settings.length; i++) {
            settings[i] = "--" + settings[i];
        }
        System.arraycopy(settings, 0, all, 2, settings.length);
        return new SpringApplicationBuilder(IdentityApplication.class).run(all);
    }
}
