package com.example.identity.training;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.training.*}: the training run of {@code bin/identity-service prepare} ({@link TrainingRun}).
 *
 * @param enabled run it: serve the training traffic once ready, then exit; default {@code false}, set only by the
 *     launcher's {@code prepare}
 * @param length how long the traffic lasts; default 30 s (JEP 515's profiles want the hot methods run thousands of
 *     times; the run does a few thousand flows in that time on two cores)
 */
@ConfigurationProperties("identity.training")
record TrainingSettings(@DefaultValue("false") boolean enabled, @DefaultValue("30s") Duration length) {
}
