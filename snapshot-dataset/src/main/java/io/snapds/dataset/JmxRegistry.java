package io.snapds.dataset;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;

/**
 * Makes the default JMX registry. Apart from {@link SnapshotMetrics} so that a class path where
 * Micrometer's JMX registry or the Dropwizard metrics under it do not load fails here, in a call
 * {@link SnapshotMetrics} catches, and not when {@link SnapshotMetrics} itself is loaded.
 */
final class JmxRegistry {
  private JmxRegistry() {}

  static MeterRegistry create(String domain) {
    return new JmxMeterRegistry(new JmxConfig() {
      @Override
      public String get(String key) {
        return null;
      }

      @Override
      public String domain() {
        return domain;
      }
    }, Clock.SYSTEM);
  }
}
