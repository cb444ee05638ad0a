package io.snapds.events;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.EventSink;
import io.snapds.dataset.EventSinkProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The 'kafka' provider is found through ServiceLoader and refuses settings it cannot work with, naming them. */
class KafkaEventSinkProviderTest {
  private final EventSinkProvider kafka =
      EventSinkProvider.available(getClass().getClassLoader()).get(KafkaEventSinkProvider.NAME);

  @Test
  void isFoundByNameAndOpensAKafkaSinkFromItsSettings() {
    assertTrue(kafka instanceof KafkaEventSinkProvider, String.valueOf(kafka));
    try (EventSink sink = kafka.open(Map.of("topic", "snapds.events", "bootstrap.servers", "127.0.0.1:9",
        "ack.timeout.ms", "500"))) {
      assertTrue(sink instanceof KafkaEventSink, sink.toString());
    }
  }

  @Test
  void refusesMissingOrWrongSettingsNamingThem() {
    IllegalArgumentException noTopic = assertThrows(IllegalArgumentException.class,
        () -> kafka.open(Map.of("bootstrap.servers", "127.0.0.1:9")));
    assertTrue(noTopic.getMessage().contains("'topic'"), noTopic.getMessage());
    IllegalArgumentException timeout = assertThrows(IllegalArgumentException.class,
        () -> kafka.open(Map.of("topic", "t", "bootstrap.servers", "127.0.0.1:9", "ack.timeout.ms", "soon")));
    assertTrue(timeout.getMessage().contains("got 'soon'"), timeout.getMessage());
    IllegalArgumentException weak = assertThrows(IllegalArgumentException.class,
        () -> kafka.open(Map.of("topic", "t", "bootstrap.servers", "127.0.0.1:9", "acks", "1")));
    assertTrue(weak.getMessage().contains("acks"), weak.getMessage());
  }
}
