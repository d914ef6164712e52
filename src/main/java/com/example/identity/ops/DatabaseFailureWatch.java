package com.example.identity.ops;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Puts a thin watch around the application's {@link DataSource}: a connection that cannot be had marks
 * the database down in {@link DatabaseAvailability} (wherever it happened: a page, the token endpoint, a
 * login inside Spring Security, the audit trail), before the failure travels on. Connections themselves
 * are not wrapped, so a statement costs nothing more. A {@link DelegatingDataSource}, so the pool stays
 * visible to Spring Boot's pool metrics and health check.
 */
class DatabaseFailureWatch implements BeanPostProcessor {

    private final DatabaseAvailability availability = new DatabaseAvailability();

    DatabaseAvailability availability() {
        return availability;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSource dataSource && !(bean instanceof Watched)) {
            var watched = new Watched(dataSource, availability);
            availability.watch(watched);
            return watched;
        }
        return bean;
    }

    static final class Watched extends DelegatingDataSource {

        private final DatabaseAvailability availability;

        Watched(DataSource target, DatabaseAvailability availability) {
            super(target);
            this.availability = availability;
        }

        @Override
        public Connection getConnection() throws SQLException {
            try {
                return super.getConnection();
            }
            catch (SQLException | RuntimeException e) {
                availability.report(e);
                throw e;
            }
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            try {
                return super.getConnection(username, password);
            }
            catch (SQLException | RuntimeException e) {
                availability.report(e);
                throw e;
            }
        }
    }
}
