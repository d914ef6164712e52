package com.example.identity.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.h2.api.ErrorCode;
import org.h2.message.DbException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** A second instance on the embedded H2 file is told why it cannot start and what to do. */
class EmbeddedDatabaseInUseTest {

    @Test
    void theErrorH2GivesASecondProcessBecomesAReportNamingPostgresql() {
        // what H2 throws when another process holds the database file's lock
        SQLException inUse = DbException.get(ErrorCode.DATABASE_ALREADY_OPEN_1, "./data/identity.mv.db").getSQLException();
        assertThat(inUse.getErrorCode()).isEqualTo(EmbeddedDatabaseInUse.H2_DATABASE_ALREADY_OPEN);
        var startFailure = new BeanCreationException("flywayInitializer", "Unable to obtain connection",
                new IllegalStateException("Failed to obtain JDBC Connection", inUse));

        var analysis = new EmbeddedDatabaseInUse().analyze(startFailure);
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("already open in another process")
                .contains("serves one instance only");
        assertThat(analysis.getAction()).contains("SPRING_DATASOURCE_URL").contains("Run several instances");
        assertThat(analysis.getCause()).isSameAs(inUse);
    }

    @Test
    void otherFailuresAreLeftToSpringBoot() {
        SQLException other = DbException.get(ErrorCode.WRONG_USER_OR_PASSWORD).getSQLException();
        assertThat(new EmbeddedDatabaseInUse().analyze(new IllegalStateException("x", other))).isNull();
    }

    @Test
    void springBootFindsIt() {
        // Boot's own analyzers need constructor arguments that its start-up supplies: skipped here
        var loaded = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
                .load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, failure) -> { }));
        assertThat(loaded).anyMatch(EmbeddedDatabaseInUse.class::isInstance);
    }
}
