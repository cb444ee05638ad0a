package io.snapds.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.EventSink;
import io.snapds.dataset.Relay;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.events.example.JobLauncher;
import io.snapds.events.example.MarkerFileJobLauncher;
import io.snapds.events.example.QualityGateExample;
import io.snapds.events.example.StartJobOnPublish;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quality gate example end to end through a real KRaft broker (in this JVM) on the HBase mini
 * cluster: the relay puts every batch on the topic twice, six stages go through the audit consumer
 * and the job consumer, each a process that reads the topic until it caught up; the audit process
 * is killed before a decision and after one, the job process after a start, and each is started
 * again. The end: one PUBLISHED or DISCARDED event per stage, the expected one, and one downstream
 * job per published snapshot.
 */
@ExtendWith(MiniClusterExtension.class)
class AuditGateKafkaIT {
  private static final String TOPIC = "snapds.audit";
  private static KafkaClusterTestKit kafka;
  private final SnapshotDatasets datasets = MiniCluster.get().datasets();

  @TempDir
  Path jobs;

  @BeforeAll
  static void startBroker() throws Exception {
    kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
        .setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    kafka.format();
    kafka.startup();
    kafka.waitForReadyBrokers();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
    }
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** A Kafka sink that sends every batch twice: each event reaches the topic as a duplicate too. */
  private static final class TwiceSink implements EventSink {
    private final KafkaEventSink kafkaSink = KafkaEventSink.create(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
        kafka.bootstrapServers()), TOPIC, Duration.ofSeconds(60));

    @Override
    public void deliver(List<DatasetEvent> batch) {
      kafkaSink.deliver(batch);
      kafkaSink.deliver(batch);
    }

    @Override
    public void close() {
      kafkaSink.close();
    }
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

  /**
   * One life of a consumer process: reads the topic until its position in {@code dataset} reached
   * {@code target}. Returns false when its handler failed (the process was killed): nothing after
   * the last committed offset and the last recorded position survives it.
   */
  private boolean runProcess(String name, EventHandler handler, DatasetId dataset, long target) {
    try (EventConsumer consumer = new EventConsumer(datasets, name, handler);
         KafkaConsumer<String, String> kafkaConsumer = new KafkaConsumer<>(consumerProps(name))) {
      kafkaConsumer.subscribe(List.of(TOPIC));
      for (int polls = 0; consumer.position(dataset) < target; polls++) {
        assertTrue(polls < 240, name + " did not reach event " + target + " in 240 polls");
        consumer.pollKafka(kafkaConsumer, Duration.ofMillis(500));
      }
      return true;
    } catch (EventHandlingException killed) {
      return false;
    }
  }

  private static SnapshotInfo stage(SnapshotDataset ds, int rows, int missingAt) {
    SnapshotWriter w = ds.newSnapshot().begin();
    for (int i = 0; i < rows; i++) {
      byte[] key = Bytes.toBytes(String.format("p%04d", i));
      w.put(key, "d", i == missingAt ? "name" : "price", Bytes.toBytes((i + 1) + ".50"));
    }
    return w.stage();
  }

  @Test
  void stagesThroughKafkaWithDuplicatesAndKilledConsumersDecideOnceAndStartOneJobEach() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("kgate"), DatasetProperties.defaults());
    SnapshotWriter first = ds.newSnapshot().begin();
    for (int i = 0; i < 100; i++) {
      first.put(Bytes.toBytes(String.format("p%04d", i)), "d", "price", Bytes.toBytes("1.00"));
    }
    SnapshotInfo v1 = first.commit();
    MarkerFileJobLauncher markers = new MarkerFileJobLauncher(jobs);
    List<String> starts = new ArrayList<>();
    JobLauncher counting = (runId, dataset, snapshot) -> {
      boolean started = markers.start(runId, dataset, snapshot);
      if (started) {
        starts.add(runId);
      }
      return started;
    };
    List<String> expected = new ArrayList<>(List.of("PUBLISHED " + v1.id()));
    List<SnapshotInfo> published = new ArrayList<>(List.of(v1));
    int kills = 0;
    try (TwiceSink sink = new TwiceSink()) {
      for (int round = 0; round < 6; round++) {
        boolean good = round != 2 && round != 4;
        SnapshotInfo s = stage(ds, round == 2 ? 40 : 100, round == 4 ? 17 : -1);
        assertEquals(0, Relay.of(ds, "kafka", sink).run().undelivered());
        long staged = ds.status().lastEventSequence();

        // the audit process; killed before its decision in round 1, after it in round 3
        AuditGate gate = QualityGateExample.gate(datasets).build();
        EventHandler audit = gate;
        if (round == 1) {
          audit = QualityGateExample.gate(datasets).beforeDecision((dataset, snapshot, outcome, reason) -> {
            throw new IllegalStateException("killed before the " + outcome);
          }).build();
        } else if (round == 3) {
          AtomicBoolean kill = new AtomicBoolean(true);
          audit = event -> {
            gate.handle(event);
            if (event.type() == DatasetEvent.Type.STAGED && kill.getAndSet(false)) {
              throw new IllegalStateException("killed after the decision");
            }
          };
        }
        if (!runProcess(QualityGateExample.AUDIT_CONSUMER, audit, ds.id(), staged)) {
          kills++;
          assertTrue(runProcess(QualityGateExample.AUDIT_CONSUMER, QualityGateExample.gate(datasets).build(), ds.id(),
              staged), "the restarted audit process caught up");
        }
        expected.add((good ? "PUBLISHED " : "DISCARDED ") + s.id());
        if (good) {
          published.add(s);
        }
        assertEquals(0, Relay.of(ds, "kafka", sink).run().undelivered());
        long decided = ds.status().lastEventSequence();

        // the job process; killed after starting a job in round 3
        JobLauncher launcher = counting;
        if (round == 3) {
          AtomicBoolean kill = new AtomicBoolean(true);
          launcher = (runId, dataset, snapshot) -> {
            boolean started = counting.start(runId, dataset, snapshot);
            if (kill.getAndSet(false)) {
              throw new IllegalStateException("killed after starting " + runId);
            }
            return started;
          };
        }
        if (!runProcess(QualityGateExample.JOB_CONSUMER, new StartJobOnPublish(ds.id(), launcher), ds.id(), decided)) {
          kills++;
          assertTrue(runProcess(QualityGateExample.JOB_CONSUMER, new StartJobOnPublish(ds.id(), counting), ds.id(),
              decided), "the restarted job process caught up");
        }
      }
    }
    assertEquals(3, kills, "killed: audit before a decision, audit after one, jobs after a start");
    List<String> decisions = ds.events(0, 10_000).stream()
        .filter(e -> e.type() == DatasetEvent.Type.PUBLISHED || e.type() == DatasetEvent.Type.DISCARDED)
        .map(e -> e.type() + " " + e.snapshotId()).collect(Collectors.toList());
    assertEquals(expected, decisions, "one decision per stage");
    assertEquals(published.get(published.size() - 1).id(), ds.currentSnapshot().orElseThrow().id());
    List<String> jobRuns = published.stream().map(s -> StartJobOnPublish.runId(s.id())).sorted().toList();
    assertEquals(jobRuns, markers.started());
    assertEquals(jobRuns, starts.stream().sorted().toList(), "one start per published snapshot");
    assertFalse(starts.isEmpty());
  }
}
