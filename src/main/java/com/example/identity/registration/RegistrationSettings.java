package com.example.identity.registration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.registration.*} (decisions §18).
 *
 * @param enabled whether people may make their own account at {@code /registro}; default {@code true}. When
 *     {@code false}, {@code /registro} and its confirmation answer 404 and the login page shows no
 *     "Crear cuenta" link (links already mailed stop working too).
 */
@ConfigurationProperties("identity.registration")
public record RegistrationSettings(@DefaultValue("true") boolean enabled) {
}
