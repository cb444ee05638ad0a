package io.snapds.events;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.EventSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An {@link EventSink} that publishes each event to a Kafka topic: key = the dataset id
 * ({@code namespace:name}), so all events of one dataset go to one partition and stay in order;
 * value = the event's JSON ({@link DatasetEvent#toJson()}, the outbox's own form).
 *
 * <p>The producer is idempotent ({@code enable.idempotence=true}, {@code acks=all}, at most 5
 * requests in flight): the broker drops the producer's own retries and keeps its sends in order.
 * A batch is acknowledged, that is {@link #deliver} returns, only after the producer's future of
 * every event of the batch completed. A failed batch closes the producer (an idempotent producer
 * that failed may be unusable), and the next {@code deliver} opens a new one; the relay then sends
 * the batch again, so the topic may hold an event twice but never lacks one or reorders a
 * dataset's first occurrences.
 */
public final class KafkaEventSink implements EventSink {
  private final String topic;
  private final Supplier<Producer<String, String>> producers;
  private final Duration ackTimeout;
  private Producer<String, String> producer;

  private KafkaEventSink(String topic, Supplier<Producer<String, String>> producers, Duration ackTimeout) {
    checkArgument(topic != null && !topic.isBlank(), "Kafka topic must not be empty, got '%s'", topic);
    checkArgument(!ackTimeout.isNegative() && !ackTimeout.isZero(), "ack timeout must be positive, got %s", ackTimeout);
    this.topic = topic;
    this.producers = producers;
    this.ackTimeout = ackTimeout;
  }

  /**
   * A sink to {@code topic} with a producer made from {@code producerConfig} (at least
   * {@code bootstrap.servers}; security settings as the cluster needs). The serializers,
   * idempotence, acks and in-flight limit are this sink's.
   *
   * @param ackTimeout how long a batch may wait for the broker's acks before it fails
   * @throws IllegalArgumentException if the config asks for weaker delivery than this sink needs
   */
  public static KafkaEventSink create(Map<String, ?> producerConfig, String topic, Duration ackTimeout) {
    Properties props = producerProperties(producerConfig);
    return new KafkaEventSink(topic, () -> new KafkaProducer<>(props), ackTimeout);
  }

  /** A sink over producers from {@code producers} (a new one after each failed batch), for tests. */
  static KafkaEventSink withProducers(String topic, Supplier<Producer<String, String>> producers, Duration ackTimeout) {
    return new KafkaEventSink(topic, producers, ackTimeout);
  }

  /** The producer settings this sink uses: the caller's, with the ones it depends on enforced. */
  static Properties producerProperties(Map<String, ?> producerConfig) {
    checkNotNull(producerConfig, "producerConfig");
    checkArgument(producerConfig.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG),
        "producer config needs %s", ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
    rejectOverride(producerConfig, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    rejectOverride(producerConfig, ProducerConfig.ACKS_CONFIG, "all");
    Properties props = new Properties();
    props.putAll(producerConfig);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return props;
  }

  private static void rejectOverride(Map<String, ?> config, String key, String required) {
    Object v = config.get(key);
    checkArgument(v == null || String.valueOf(v).equalsIgnoreCase(required),
        "the Kafka event sink needs %s=%s (ordered, at least once), got %s", key, required, v);
  }

  public String topic() {
    return topic;
  }

  @Override
  public void deliver(List<DatasetEvent> batch) {
    if (producer == null) {
      producer = producers.get();
    }
    List<Future<RecordMetadata>> acks = new ArrayList<>(batch.size());
    try {
      for (DatasetEvent e : batch) {
        acks.add(producer.send(new ProducerRecord<>(topic, e.dataset().toString(), e.toJson())));
      }
      producer.flush();
      long deadline = System.nanoTime() + ackTimeout.toNanos();
      for (Future<RecordMetadata> ack : acks) {
        ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed(batch, e);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      throw failed(batch, e instanceof ExecutionException ? e.getCause() : e);
    }
  }

  private EventDeliveryException failed(List<DatasetEvent> batch, Throwable cause) {
    Producer<String, String> broken = producer;
    producer = null;
    try {
      broken.close(Duration.ZERO);
    } catch (RuntimeException closing) {
      cause.addSuppressed(closing);
    }
    DatasetEvent first = batch.get(0);
    return new EventDeliveryException(first.dataset(), first.sequence(), batch.get(batch.size() - 1).sequence(),
        "Kafka topic " + topic, cause);
  }

  @Override
  public void close() {
    if (producer != null) {
      producer.close(ackTimeout);
      producer = null;
    }
  }

  @Override
  public String toString() {
    return "KafkaEventSink{" + topic + "}";
  }
}
