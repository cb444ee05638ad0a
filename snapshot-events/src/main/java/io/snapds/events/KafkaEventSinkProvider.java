package io.snapds.events;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.EventSink;
import io.snapds.dataset.EventSinkProvider;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@link EventSinkProvider} named {@value #NAME}: a {@link KafkaEventSink} from settings
 * {@code topic} (required), {@code ack.timeout.ms} (default 30,000) and every other key passed to
 * the producer as is ({@code bootstrap.servers} is required; idempotence and {@code acks=all} are
 * the sink's). Registered in {@code META-INF/services}, so {@code snapds reconcile --relay kafka
 * --relay-config kafka.topic=... --relay-config kafka.bootstrap.servers=...} works once this jar
 * is on the command line's class path.
 */
public final class KafkaEventSinkProvider implements EventSinkProvider {
  public static final String NAME = "kafka";
  public static final String TOPIC = "topic";
  public static final String ACK_TIMEOUT_MS = "ack.timeout.ms";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public EventSink open(Map<String, String> settings) {
    Map<String, String> producer = new TreeMap<>(settings);
    String topic = producer.remove(TOPIC);
    checkArgument(topic != null && !topic.isBlank(), "the kafka event sink needs the setting '%s', got %s", TOPIC,
        settings.keySet());
    String timeout = producer.remove(ACK_TIMEOUT_MS);
    long ms;
    try {
      ms = timeout == null ? 30_000 : Long.parseLong(timeout.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the kafka event sink's '" + ACK_TIMEOUT_MS + "' must be milliseconds, got '"
          + timeout + "'", e);
    }
    checkArgument(ms >= 1, "the kafka event sink's '%s' must be >= 1, got %s", ACK_TIMEOUT_MS, ms);
    return KafkaEventSink.create(producer, topic, Duration.ofMillis(ms));
  }
}
