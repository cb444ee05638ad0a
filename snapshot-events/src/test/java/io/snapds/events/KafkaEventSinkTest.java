package io.snapds.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The Kafka sink's rules without a broker (KafkaEventsIT has the real one): the delivery settings
 * it needs cannot be weakened, records are keyed by dataset and carry the event's JSON in order,
 * and a failed batch is reported typed and gets a fresh producer.
 */
class KafkaEventSinkTest {
  private static final DatasetId DS = DatasetId.parse("shop:prices");

  private static DatasetEvent event(long sequence) {
    return new DatasetEvent(1, DatasetEvent.Type.PUBLISHED, DS, sequence, Optional.of(SnapshotId.of(1000 + sequence)),
        Optional.of("run-" + sequence), Optional.empty(), 3, Instant.parse("2026-12-02T00:00:00Z"));
  }

  @Test
  void theProducerIsIdempotentWithAcksFromAllAndCannotBeWeakened() {
    Properties p = KafkaEventSink.producerProperties(Map.of("bootstrap.servers", "b:9092", "linger.ms", 5));
    assertEquals("true", p.get("enable.idempotence"));
    assertEquals("all", p.get("acks"));
    assertEquals("5", p.get("max.in.flight.requests.per.connection"));
    assertEquals(5, p.get("linger.ms"));
    IllegalArgumentException acks = assertThrows(IllegalArgumentException.class,
        () -> KafkaEventSink.producerProperties(Map.of("bootstrap.servers", "b:9092", "acks", "1")));
    assertTrue(acks.getMessage().contains("acks=all") && acks.getMessage().contains("got 1"), acks.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KafkaEventSink.producerProperties(
        Map.of("bootstrap.servers", "b:9092", "enable.idempotence", "false")));
    IllegalArgumentException servers = assertThrows(IllegalArgumentException.class,
        () -> KafkaEventSink.producerProperties(Map.of()));
    assertTrue(servers.getMessage().contains("bootstrap.servers"), servers.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KafkaEventSink.create(Map.of("bootstrap.servers", "b:9092"),
        " ", Duration.ofSeconds(1)));
  }

  @Test
  void recordsAreKeyedByDatasetInSequenceOrderAndAFailedBatchGetsANewProducer() {
    List<MockProducer<String, String>> made = new ArrayList<>();
    KafkaEventSink sink = KafkaEventSink.withProducers("events", () -> {
      MockProducer<String, String> p = new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
      made.add(p);
      return p;
    }, Duration.ofSeconds(5));
    sink.deliver(List.of(event(1), event(2), event(3)));
    List<ProducerRecord<String, String>> sent = made.get(0).history();
    assertEquals(List.of("shop:prices", "shop:prices", "shop:prices"), sent.stream().map(ProducerRecord::key).toList());
    assertEquals(List.of(event(1), event(2), event(3)),
        sent.stream().map(r -> DatasetEvent.fromJson(r.value())).toList());

    made.get(0).sendException = new IllegalStateException("broker gone");
    EventDeliveryException failed = assertThrows(EventDeliveryException.class,
        () -> sink.deliver(List.of(event(4), event(5))));
    assertEquals(4, failed.firstSequence());
    assertEquals(5, failed.lastSequence());
    assertTrue(failed.getMessage().contains("broker gone") && failed.getMessage().contains("shop:prices"),
        failed.getMessage());
    assertTrue(made.get(0).closed(), "the failed producer is closed");
    sink.deliver(List.of(event(4), event(5)));
    assertEquals(2, made.size(), "the next batch got a new producer");
    assertEquals(List.of(4L, 5L), made.get(1).history().stream()
        .map(r -> DatasetEvent.fromJson(r.value()).sequence()).toList());
    sink.close();
    assertTrue(made.get(1).closed());
  }
}
