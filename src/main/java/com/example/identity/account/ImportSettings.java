package com.example.identity.account;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the import from the system this service replaces (docs/migration.md). A record of its own
 * rather than a component of {@code IdentityProperties}: {@code import} is a Java keyword, and only
 * password hashing and the import read it.
 *
 * @param legacySha256 accept and verify legacy salted SHA-256 password hashes ({@code sha256$<salt>$<hex>});
 *     default off: such hashes are refused at import and never match at login. Turn it on only when the old
 *     system's export brings them, and keep it on until every such account has logged in once (each
 *     login rehashes to Argon2id).
 */
@ConfigurationProperties("identity.import")
public record ImportSettings(@DefaultValue("false") boolean legacySha256) {
}
