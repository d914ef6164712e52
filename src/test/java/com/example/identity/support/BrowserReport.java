package com.example.identity.support;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Says plainly, at the end of a test run, that the browser tests did not run because Chromium is missing
 * (a user's {@code mvn verify} on a machine without it skips them), as {@link DatabaseReport} says which
 * database the integration tests used. {@code .ci/run} makes them mandatory instead.
 */
public class BrowserReport implements TestExecutionListener {

    /** The browser tests skipped in this JVM ({@link Chromium#start} counts them). */
    private static final Skips SKIPS = new Skips();

    private final PrintStream out;
    private final Skips skips;

    public BrowserReport() {
        this(System.out, SKIPS);
    }

    BrowserReport(PrintStream out, Skips skips) {
        this.out = out;
        this.skips = skips;
    }

    /** A browser test was skipped, and what is missing. */
    static void skipped(String missing) {
        SKIPS.add(missing);
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        skips.count.set(0);
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        int skipped = skips.count.get();
        if (skipped == 0) {
            return;
        }
        out.println("""
                [identity] NOTE: %d browser test(s) did not run: %s.
                [identity]       To run them: apt-get install chromium chromium-driver, then mvn verify
                [identity]       (bash .ci/run installs them and makes the browser tests mandatory)."""
                .formatted(skipped, skips.missing.get()));
    }

    static final class Skips {
        private final AtomicInteger count = new AtomicInteger();
        private final AtomicReference<String> missing = new AtomicReference<>();

        void add(String what) {
            missing.set(what);
            count.incrementAndGet();
        }
    }
}
