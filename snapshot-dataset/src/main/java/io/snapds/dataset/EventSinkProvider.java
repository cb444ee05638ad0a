package io.snapds.dataset;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Makes {@link EventSink}s of one kind, chosen by name at run time, as the command line's
 * {@code snapds reconcile --relay NAME} does. Providers are found with {@link ServiceLoader}: the
 * jar that brings a sink lists its provider in
 * {@code META-INF/services/io.snapds.dataset.EventSinkProvider}, so the sink's dependencies (the
 * Kafka client, for {@code kafka} in {@code snapshot-events}) stay in that jar and off the core's
 * classpath; putting the jar on the class path is what makes the name known.
 */
public interface EventSinkProvider {
  /** The name the sink is chosen by ({@code kafka}); the command line also names its relay after it. */
  String name();

  /**
   * A new sink configured by {@code settings}, the provider's own keys (for {@code kafka}: the
   * topic and the producer's settings).
   *
   * @throws IllegalArgumentException naming a setting that is missing or invalid
   */
  EventSink open(Map<String, String> settings);

  /** The providers {@code loader} finds, by name (the first of a name wins). */
  static Map<String, EventSinkProvider> available(ClassLoader loader) {
    Map<String, EventSinkProvider> out = new TreeMap<>();
    for (EventSinkProvider p : ServiceLoader.load(EventSinkProvider.class, loader)) {
      out.putIfAbsent(p.name(), p);
    }
    return out;
  }
}
