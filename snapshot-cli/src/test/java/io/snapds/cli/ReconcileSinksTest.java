package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.EventSink;
import io.snapds.dataset.EventSinkProvider;
import io.snapds.dataset.LogEventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code reconcile --relay NAME --relay-config NAME.KEY=VALUE}: 'log' is built in, other names come
 * from the providers on the class path with their own settings, and a name no provider has, or a
 * setting of no chosen sink, is refused naming it. The command line's own class path has no Kafka.
 */
class ReconcileSinksTest {
  private final List<Map<String, String>> opened = new ArrayList<>();

  private final EventSinkProvider collect = new EventSinkProvider() {
    @Override
    public String name() {
      return "collect";
    }

    @Override
    public EventSink open(Map<String, String> settings) {
      opened.add(settings);
      return batch -> { };
    }
  };

  @Test
  void logIsBuiltInAndOtherSinksComeFromProvidersWithTheirOwnSettings() {
    Map<String, EventSink> sinks = ReconcileCommand.sinks(List.of("log", "collect", "collect"),
        Map.of("collect.topic", "t1", "collect.bootstrap.servers", "h:9092"), Map.of("collect", collect));
    assertEquals(List.of("collect", "log"), List.copyOf(sinks.keySet()));
    assertTrue(sinks.get("log") instanceof LogEventSink);
    assertEquals(List.of(Map.of("topic", "t1", "bootstrap.servers", "h:9092")), opened, "opened once, prefix off");
  }

  @Test
  void anUnknownSinkOrASettingOfNoChosenSinkIsRefusedNamingIt() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> ReconcileCommand.sinks(List.of("kafka"), Map.of(), Map.of("collect", collect)));
    assertTrue(unknown.getMessage().contains("no event sink 'kafka'") && unknown.getMessage().contains("[log, collect]")
        && unknown.getMessage().contains("snapshot-events"), unknown.getMessage());
    IllegalArgumentException stray = assertThrows(IllegalArgumentException.class,
        () -> ReconcileCommand.sinks(List.of("log"), Map.of("kafka.topic", "t"), Map.of()));
    assertTrue(stray.getMessage().contains("kafka.topic"), stray.getMessage());
    assertEquals(List.of(), opened);
  }

  @Test
  void theCommandLinesOwnClassPathHasNoKafkaSink() {
    assertFalse(EventSinkProvider.available(getClass().getClassLoader()).containsKey("kafka"));
    assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.kafka.clients.producer.KafkaProducer"));
  }
}
