package com.example.identity.support;

import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says plainly, at the end of a run of integration tests, which database they ran on: a user's
 * {@code mvn verify} uses the embedded H2 database, and the PostgreSQL run is {@code bash .ci/run}.
 */
public class DatabaseReport implements TestExecutionListener {

    private boolean integrationTestsRan;

    @Override
    public void executionStarted(TestIdentifier test) {
        if (test.getSource().orElse(null) instanceof ClassSource source && source.getClassName().endsWith("IT")) {
            integrationTestsRan = true;
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (!integrationTestsRan) {
            return;
        }
        String url = System.getenv("SPRING_DATASOURCE_URL");
        if (url != null && url.startsWith("jdbc:postgresql:")) {
            System.out.println("[identity] The integration tests ran on PostgreSQL (" + url.replaceAll("//[^/]*@", "//") + ").");
        }
        else {
            System.out.println("""
                    [identity] NOTE: the integration tests ran on the embedded H2 database only.
                    [identity]       The PostgreSQL tests did not run. To run them: bash .ci/run
                    [identity]       (or SPRING_DATASOURCE_URL=jdbc:postgresql://127.0.0.1:5432/<fresh db> mvn verify).""");
        }
    }
}
