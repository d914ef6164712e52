package com.example.identity;

import java.util.Arrays;
import java.util.stream.Stream;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

import com.example.identity.migration.ImportCommand;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class IdentityApplication {

    public static void main(String[] args) {
        if (ImportCommand.isImport(args)) {
            // the import from the system this service replaces: no web server, a report, an exit status
            System.exit(ImportCommand.run(IdentityApplication.class, args, System.out));
        }
        if (Arrays.asList(args).contains("rotate-signing-key")) {
            // the command (keys/RotateSigningKeyCommand) runs beside the serving instances: no fixed port
            args = Stream.concat(Arrays.stream(args), Stream.of("--server.port=0", "--management.server.port=0"))
                    .toArray(String[]::new);
        }
        SpringApplication.run(IdentityApplication.class, args);
    }
}
