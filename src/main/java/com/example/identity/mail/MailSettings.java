package com.example.identity.mail;

import java.nio.file.Path;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code identity.mail.*}: who the service's mail comes from, and where it goes when no SMTP server is
 * configured. The SMTP server itself is Spring Boot's {@code spring.mail.*} ({@code host}, {@code port},
 * {@code username}, {@code password}, {@code properties.mail.smtp.starttls.enable}, ...).
 *
 * @param from the sender, as {@code From:} shows it; default {@code Identidad <no-reply@localhost>}
 * @param directory where messages are written as {@code .eml} files when {@code spring.mail.host} is not
 *     set (the embedded default: a newcomer follows the recovery flow by opening the file); default
 *     {@code ./data/mail}
 */
@Validated
@ConfigurationProperties("identity.mail")
public record MailSettings(
        @NotBlank @DefaultValue("Identidad <no-reply@localhost>") String from,
        @NotNull @DefaultValue("./data/mail") Path directory) {
}
