package com.example.identity.keys;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * {@code java -jar identity-service.jar rotate-signing-key} (with the service's usual settings): rotates
 * the signing key of the database those settings name, prints the new key and when it signs, and exits.
 * The running instances publish the new key within a second and sign with it after
 * {@code identity.signing-key.rotation-delay}. The admin page's button does the same.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class RotateSigningKeyCommand implements ApplicationRunner {

    static final String COMMAND = "rotate-signing-key";

    private final SigningKeys keys;
    private final ConfigurableApplicationContext context;

    RotateSigningKeyCommand(SigningKeys keys, ConfigurableApplicationContext context) {
        this.keys = keys;
        this.context = context;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!args.getNonOptionArgs().contains(COMMAND)) {
            return;
        }
        int status;
        try {
            var added = keys.rotate();
            System.out.println("rotate-signing-key: key " + added.kid() + " published; it signs from "
                    + added.activatesAt() + " (identity.signing-key.rotation-delay " + keys.rotationDelay() + ")");
            status = 0;
        }
        catch (IllegalStateException e) {
            System.err.println("rotate-signing-key: not rotated: " + e.getMessage());
            status = 1;
        }
        int exit = status;
        System.exit(SpringApplication.exit(context, () -> exit));
    }
}
