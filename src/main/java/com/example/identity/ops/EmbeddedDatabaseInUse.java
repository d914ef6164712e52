package com.example.identity.ops;

import java.sql.SQLException;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * A second instance started on the embedded H2 database (decisions §13: H2 serves one instance only). H2
 * locks its file, so the second process cannot open it and fails to start with error 90020 ("Database may
 * be already in use"); this turns that into a start-up report that says what happened and what to do,
 * instead of a stack trace about a lock file. Registered in {@code META-INF/spring.factories}.
 */
public class EmbeddedDatabaseInUse implements FailureAnalyzer {

    /** {@code org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1}. */
    static final int H2_DATABASE_ALREADY_OPEN = 90020;

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
                return new FailureAnalysis("""
                        The embedded H2 database is already open in another process: another instance of this \
                        service (or an H2 console) is running on the same database file. The embedded database \
                        serves one instance only.""", """
                        Stop the other instance, or, to run several instances, point every instance at one \
                        PostgreSQL database (SPRING_DATASOURCE_URL; docs/operations.md, "Run several \
                        instances").""", cause);
            }
        }
        return null;
    }
}
