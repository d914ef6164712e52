package com.example.identity.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The closing note of a run whose browser tests were skipped for want of Chromium. */
class BrowserReportTest {

    @Test
    void aRunWithSkippedBrowserTestsEndsBySayingSo() {
        var out = new ByteArrayOutputStream();
        var skips = new BrowserReport.Skips();
        var report = new BrowserReport(new PrintStream(out, true, StandardCharsets.UTF_8), skips);
        report.testPlanExecutionStarted(null);
        skips.add("/usr/bin/chromium or /usr/bin/chromedriver is missing");
        skips.add("/usr/bin/chromium or /usr/bin/chromedriver is missing");
        report.testPlanExecutionFinished(null);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("""
                [identity] NOTE: 2 browser test(s) did not run: /usr/bin/chromium or /usr/bin/chromedriver is missing.
                [identity]       To run them: apt-get install chromium chromium-driver, then mvn verify
                [identity]       (bash .ci/run installs them and makes the browser tests mandatory).
                """);
    }

    @Test
    void aRunWithoutSkippedBrowserTestsSaysNothing() {
        var out = new ByteArrayOutputStream();
        var report = new BrowserReport(new PrintStream(out, true, StandardCharsets.UTF_8), new BrowserReport.Skips());
        report.testPlanExecutionStarted(null);
        report.testPlanExecutionFinished(null);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
