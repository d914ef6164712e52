package com.example.identity;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class IdentityApplication {

    public static void main(String[] args) {
        if (java.util.Arrays.asList(args).contains("rotate-signing-key")) {
            // the command (keys/RotateSigningKeyCommand) runs beside the serving instances: no fixed port
            args = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                    java.util.stream.Stream.of("--server.port=0", "--management.server.port=0")).toArray(String[]::new);
        }
        SpringApplication.run(IdentityApplication.class, args);
    }
}
