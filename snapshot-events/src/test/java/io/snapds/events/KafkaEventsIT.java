package io.snapds.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.EventSink;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.Relay;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import io.snapds.events.example.DerivedSnapshotJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Events from the outbox through a real KRaft broker (in this JVM) to an idempotent consumer, on
 * the HBase mini cluster: 200 publishes from 4 writers over 4 datasets while the relay is killed
 * and restarted 5 times; the topic holds every sequence of every dataset at least once, first
 * occurrences in order; the consumer reads the topic with its duplicates and derives exactly one
 * snapshot per published source snapshot with a real MapReduce job (local runner).
 *
 * <p>A kill is the relay's sink failing part-way through a batch (some events reached the
 * broker) or after the whole batch was acknowledged by the broker, in both cases before the
 * relay wrote its position, followed by a new relay with a new producer (a new process: the
 * broker cannot drop its resends as duplicates). That is what a killed process leaves behind: the
 * relay's only durable state is its position row, written in a metadata transaction after the
 * sink returned, so a kill at any instant leaves either the old position (these cases) or the new
 * one (nothing to redo).
 */
@ExtendWith(MiniClusterExtension.class)
class KafkaEventsIT {
  private static final String TOPIC = "snapds.events";
  private static KafkaClusterTestKit kafka;
  private final MiniCluster cluster = MiniCluster.get();

  @BeforeAll
  static void startBroker() throws Exception {
    kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
        .setNumControllerNodes(1).build())
        // one broker: the consumer group's offsets topic must not ask for 3 replicas
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    kafka.format();
    kafka.startup();
    kafka.waitForReadyBrokers();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
    }
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** The relay's sink: a Kafka sink that the test kills at planned deliveries, then replaces. */
  private static final class KillableKafkaSink implements EventSink {
    private final Random random = new Random(5);
    private KafkaEventSink live = newSink();
    int deliveries;
    int kills;

    private static KafkaEventSink newSink() {
      return KafkaEventSink.create(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
          ProducerConfig.LINGER_MS_CONFIG, 5), TOPIC, Duration.ofSeconds(60));
    }

    @Override
    public void deliver(List<DatasetEvent> batch) {
      deliveries++;
      if (kills < 5 && deliveries % 6 == 0) {
        kills++;
        boolean afterAck = kills % 2 == 0;
        // part of the batch (or all of it) reaches the broker, then the process dies
        live.deliver(afterAck ? batch : batch.subList(0, Math.max(1, random.nextInt(batch.size() + 1))));
        live.close();
        live = newSink(); // the restarted relay's producer
        throw new IllegalStateException("relay killed " + (afterAck ? "after the broker acked" : "mid-batch"));
      }
      live.deliver(batch);
    }

    @Override
    public void close() {
      live.close();
    }
  }

  @Test
  void publishesWhileTheRelayIsKilledReachTheTopicInOrderAndEachDerivesOneSnapshot() throws Exception {
    DatasetId prices = DatasetId.parse("shop:prices");
    List<DatasetId> sources = List.of(prices, DatasetId.parse("shop:stock"), DatasetId.parse("shop:orders"),
        DatasetId.parse("shop:rates"));
    int[] publishes = {8, 64, 64, 64}; // 200; few of prices: each one runs a MapReduce job
    DatasetProperties keepAll = DatasetProperties.builder().retention(RetentionPolicy.retainLast(100)).build();
    for (DatasetId id : sources) {
      cluster.datasets().create(id, id.equals(prices) ? keepAll : DatasetProperties.builder().build()).close();
    }
    DatasetId derived = DatasetId.parse("shop:prices_derived");
    cluster.datasets().create(derived, keepAll).close();

    // 4 writers publish while the relay delivers and is killed 5 times
    ExecutorService pool = Executors.newFixedThreadPool(5, r -> {
      Thread t = new Thread(r, "writer-or-relay");
      t.setDaemon(true); // a failed run must not keep the test JVM alive
      return t;
    });
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      DatasetId id = sources.get(w);
      int n = publishes[w];
      writers.add(pool.submit(() -> {
        try (SnapshotDataset ds = cluster.datasets().open(id)) {
          for (int i = 0; i < n; i++) {
            publish(ds, i);
          }
        }
        return null;
      }));
    }
    AtomicBoolean writing = new AtomicBoolean(true);
    KillableKafkaSink sink = new KillableKafkaSink();
    Future<?> relay = pool.submit(() -> {
      Random random = new Random(11);
      Map<DatasetId, SnapshotDataset> open = new HashMap<>();
      sources.forEach(id -> open.put(id, cluster.datasets().open(id)));
      try {
        while (true) {
          boolean writersDone = !writing.get(); // read before the round: what they wrote last is in it
          boolean behind = false;
          long delivered = 0;
          for (DatasetId id : sources) {
            Relay.RelayResult r = Relay.of(open.get(id), "kafka", sink).batchSize(1 + random.nextInt(10)).run();
            delivered += r.delivered();
            behind |= r.failure().isPresent() || r.toPosition() < open.get(id).status().lastEventSequence();
          }
          if (writersDone && !behind) {
            break;
          }
          if (delivered == 0 && !behind) {
            Thread.sleep(20); // caught up: let the writers publish
          }
        }
      } finally {
        open.values().forEach(SnapshotDataset::close);
      }
      return null;
    });
    for (Future<?> w : writers) {
      w.get();
    }
    writing.set(false);
    relay.get();
    sink.close();
    pool.shutdown();
    assertEquals(5, sink.kills, "the relay was killed five times");

    // the topic: every sequence of every dataset at least once, first occurrences in order
    Map<String, List<DatasetEvent>> topic = readTopic();
    Map<DatasetId, Long> last = new HashMap<>();
    int records = 0;
    for (int w = 0; w < 4; w++) {
      DatasetId id = sources.get(w);
      try (SnapshotDataset ds = cluster.datasets().open(id)) {
        long lastSequence = ds.status().lastEventSequence();
        last.put(id, lastSequence);
        List<DatasetEvent> got = topic.get(id.toString());
        records += got.size();
        LinkedHashSet<Long> first = new LinkedHashSet<>();
        got.forEach(e -> first.add(e.sequence()));
        assertEquals(LongStream.rangeClosed(1, lastSequence).boxed().toList(), List.copyOf(first), id.toString());
        List<SnapshotId> publishedOnTopic = got.stream().filter(e -> e.type() == DatasetEvent.Type.PUBLISHED)
            .map(DatasetEvent::snapshotId).distinct().toList();
        assertEquals(ds.history().stream().filter(h -> h.reason().equals("publish")).map(HistoryEntry::snapshot)
            .toList(), publishedOnTopic, "the PUBLISHED events are the publish history of " + id);
        assertEquals(publishes[w], publishedOnTopic.size());
        assertEquals(lastSequence, ds.deliveredPosition("kafka"));
      }
    }
    long distinct = last.values().stream().mapToLong(Long::longValue).sum();
    assertTrue(records > distinct, "the kills made the relay resend: " + records + " records of " + distinct
        + " events");

    // the consumer reads the topic, duplicates and all; each prices publish derives one snapshot
    Configuration conf = new Configuration(cluster.configuration());
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50);
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    DerivedSnapshotJob job = new DerivedSnapshotJob(conf, cluster.datasets(), prices, derived);
    int handled = 0;
    try (EventConsumer consumer = new EventConsumer(cluster.datasets(), "derive-prices", job);
        KafkaConsumer<String, String> kafkaConsumer = new KafkaConsumer<>(consumerProps("derive-prices"))) {
      kafkaConsumer.subscribe(List.of(TOPIC));
      while (!caughtUp(consumer, last)) {
        handled += consumer.pollKafka(kafkaConsumer, Duration.ofMillis(500));
      }
      assertEquals(distinct, handled, "each event handled once, its duplicates skipped");
      // a redelivered event is a duplicate: no job
      DatasetEvent again = topic.get(prices.toString()).get(0);
      assertEquals(EventConsumer.Outcome.DUPLICATE, consumer.accept(again));
      EventGapException gap = assertThrows(EventGapException.class, () -> consumer.accept(new DatasetEvent(
          again.schemaVersion(), again.type(), prices, last.get(prices) + 2, again.snapshot(), again.runId(),
          again.sourceKey(), again.rowCount(), again.commitTime())));
      assertEquals(last.get(prices), gap.position());
    }

    List<SnapshotInfo> sourceSnapshots;
    try (SnapshotDataset src = cluster.datasets().open(prices)) {
      sourceSnapshots = src.history().stream().map(h -> src.snapshot(h.snapshot())).toList();
    }
    List<SnapshotInfo> derivedSnapshots = derivedHistory(derived);
    assertEquals(sourceSnapshots.stream().map(s -> DerivedSnapshotJob.runId(s.id())).toList(),
        derivedSnapshots.stream().map(s -> s.runId().orElseThrow()).toList(),
        "one derived snapshot per source snapshot, in order, run ids derived-<id>");
    for (int i = 0; i < sourceSnapshots.size(); i++) {
      assertEquals(sourceSnapshots.get(i).rowCount(), derivedSnapshots.get(i).rowCount());
    }

    // a replay (the consumer crashed after the job, before it recorded the event) publishes nothing
    List<DatasetEvent> replay = topic.get(prices.toString()).stream()
        .filter(e -> e.type() == DatasetEvent.Type.PUBLISHED).limit(2).toList();
    for (DatasetEvent e : replay) {
      job.handle(e);
    }
    assertEquals(derivedSnapshots, derivedHistory(derived), "the replayed jobs published nothing");
  }

  private static void publish(SnapshotDataset ds, int i) {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int k = 0; k <= i % 3; k++) {
        w.put(Bytes.toBytes("k" + k), "d", "v", Bytes.toBytes(ds.id() + "/" + i));
      }
      w.commit();
    }
  }

  private List<SnapshotInfo> derivedHistory(DatasetId derived) {
    try (SnapshotDataset ds = cluster.datasets().open(derived)) {
      return ds.history().stream().map(h -> ds.snapshot(h.snapshot())).toList();
    }
  }

  private static boolean caughtUp(EventConsumer consumer, Map<DatasetId, Long> last) {
    return last.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) == e.getValue());
  }

  private static Properties consumerProps(String group) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return p;
  }

  /** Every record of the topic, by key (dataset), in partition order. */
  private static Map<String, List<DatasetEvent>> readTopic() {
    Map<String, List<DatasetEvent>> byKey = new HashMap<>();
    Properties p = consumerProps("check-" + System.nanoTime());
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> parts = c.partitionsFor(TOPIC).stream()
          .map(i -> new TopicPartition(TOPIC, i.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
          DatasetEvent e = DatasetEvent.fromJson(r.value());
          assertEquals(r.key(), e.dataset().toString(), "keyed by dataset");
          byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(e);
        }
      }
    }
    return byKey;
  }
}
