package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import org.slf4j.LoggerFactory;

/**
 * Where the datasets of this process report their metrics (docs/operations.md lists them): the
 * process-wide {@link #registry()}, a Micrometer composite. By default it holds a JMX registry
 * (domain {@value #JMX_DOMAIN}, in the platform MBean server); {@code -Dsnapds.metrics.jmx=false}
 * (read once, when this class loads) or {@link #jmx(boolean) jmx(false)} turns that off. Add your
 * own registry with {@link #use}; or give one {@link SnapshotDatasets} its own registry with
 * {@link SnapshotDatasets#withMetrics}, which its datasets then report to instead of this one.
 */
public final class SnapshotMetrics {
  /** The JMX domain of the default registry's MBeans. */
  public static final String JMX_DOMAIN = "snapds";
  /** The system property that turns the default JMX registry off when {@code false}. */
  public static final String JMX_PROPERTY = "snapds.metrics.jmx";

  private static final CompositeMeterRegistry GLOBAL = new CompositeMeterRegistry();
  private static MeterRegistry jmx;

  static {
    if (!"false".equalsIgnoreCase(System.getProperty(JMX_PROPERTY, "true").trim())) {
      try {
        jmx(true);
      } catch (RuntimeException | LinkageError e) {
        // a host whose class path has another Dropwizard metrics (a plugin runtime), or that
        // forbids MBean registration: the datasets work without JMX rather than not at all
        LoggerFactory.getLogger(SnapshotMetrics.class).warn("snapds metrics: JMX registry not started ({}); "
            + "metrics go only to registries added with SnapshotMetrics.use", e.toString());
      }
    }
  }

  private SnapshotMetrics() {}

  /** The registry the datasets of this process report to, unless opened with their own. */
  public static MeterRegistry registry() {
    return GLOBAL;
  }

  /**
   * Adds {@code registry} to the process-wide one: it receives every dataset's meters, those made
   * before too, counting from now (Micrometer does not copy earlier counts into a new member).
   */
  public static void use(MeterRegistry registry) {
    GLOBAL.add(checkNotNull(registry, "registry"));
  }

  /** Stops reporting to {@code registry} (added with {@link #use}). */
  public static void stopUsing(MeterRegistry registry) {
    GLOBAL.remove(checkNotNull(registry, "registry"));
  }

  /** Turns the default JMX registry on or off (its MBeans go with it). */
  public static synchronized void jmx(boolean on) {
    if (on && jmx == null) {
      jmx = JmxRegistry.create(JMX_DOMAIN);
      GLOBAL.add(jmx);
    } else if (!on && jmx != null) {
      GLOBAL.remove(jmx);
      jmx.close();
      jmx = null;
    }
  }

  /** Whether the default JMX registry is on. */
  public static synchronized boolean jmxOn() {
    return jmx != null;
  }
}
