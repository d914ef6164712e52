package com.example.identity.training;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.training.*}: the training run of {@code bin/identity-service prepare} ({@link TrainingRun}).
 *
 * @param enabled run it: serve the training traffic once ready, then exit; default {@code false}, set only by the
 *     launcher's {@code prepare}
 * @param length how long the traffic lasts; default 30 s (about 3,000 flows), so the cache holds the hot paths' method
 *     profiles (JEP 515) and a node started from it sends them to the C2 compiler at their first calls instead of after
 *     thousands in C1's profiling tier: on two cores with Java 25 its first 10-second window of the code flow went from
 *     about 42% of the steady rate to 54%, and to 62-68% with the launcher's shallower inlining (docs/performance.md,
 *     "Warm-up"). {@code 0s} starts the service and exits at
 *     once (a class cache of the start only, as before issue 32's measurements)
 */
@ConfigurationProperties("identity.training")
record TrainingSettings(@DefaultValue("false") boolean enabled, @DefaultValue("30s") Duration length) {
}
