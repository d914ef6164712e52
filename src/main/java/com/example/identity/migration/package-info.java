/**
 * The import from the system this service replaces (docs/migration.md): users with
 * their ids and password hashes, API tokens and OAuth applications from JSON-lines files, validated as a
 * whole before anything is written, through the rules of {@code account/}, {@code apitoken/} and
 * {@code client/}. Run as {@code java -jar identity-service.jar import --users=... --tokens=... --clients=...}
 * ({@link com.example.identity.migration.ImportCommand}).
 */
@NullMarked
package com.example.identity.migration;

import org.jspecify.annotations.NullMarked;
