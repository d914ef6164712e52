package com.example.identity.training;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.training.*}: the training run of {@code bin/identity-service prepare} ({@link TrainingRun}).
 *
 * @param enabled run it: serve the training traffic once ready, then exit; default {@code false}, set only by the
 *     launcher's {@code prepare}
 * @param length how long the traffic lasts; default 0 s: the run starts the service and exits at once. Measured on two
 *     cores with Java 25 (docs/performance.md, "Warm-up"), 30 s of traffic (about 3,000 flows, so the cache holds
 *     their profiles, JEP 515) left the warm-up curve where it was and made the start 0.6 s slower (a larger cache
 *     to map): the first minute's cost is the JIT compiling, not profiling. {@code prepare
 *     --identity.training.length=30s} keeps it for a host where it measures better.
 */
@ConfigurationProperties("identity.training")
record TrainingSettings(@DefaultValue("false") boolean enabled, @DefaultValue("0s") Duration length) {
}
