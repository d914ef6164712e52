package com.example.identity.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;

/**
 * A test class that drives headless Chromium: without Debian's {@code chromium} and {@code chromium-driver} (or
 * the files {@code CHROMIUM_BIN} and {@code CHROMEDRIVER_BIN} name), the whole class is skipped before anything of
 * it runs (no application started, no set-up, no teardown that would find its set-up missing) with a line saying
 * what to install, and the run's closing note counts its tests ({@link BrowserReport}). With
 * {@code IDENTITY_BROWSER_TESTS=required} ({@code .ci/run}) the class runs, and {@link Chromium#start} fails it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(NeedsChromium.Condition.class)
public @interface NeedsChromium {

    /** Skips a browser test class when Chromium or its driver is missing and browser tests are not required. */
    final class Condition implements ExecutionCondition {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String missing = Chromium.missing();
            if (missing == null || Chromium.required() || context.getTestMethod().isPresent()) {
                return ConditionEvaluationResult.enabled("Chromium and chromedriver found, or browser tests required");
            }
            Class<?> tests = context.getRequiredTestClass();
            int count = AnnotationSupport.findAnnotatedMethods(tests, Test.class, HierarchyTraversalMode.TOP_DOWN).size();
            String why = Chromium.skipReason(missing);
            System.out.println("WARNING: " + tests.getSimpleName() + ": " + why);
            for (int i = 0; i < count; i++) {
                BrowserReport.skipped(missing);
            }
            return ConditionEvaluationResult.disabled(why);
        }
    }
}
