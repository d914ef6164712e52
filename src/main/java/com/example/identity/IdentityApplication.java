package com.example.identity;

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
        SpringApplication.run(IdentityApplication.class, args);
    }
}
