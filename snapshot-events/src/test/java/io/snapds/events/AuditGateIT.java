package io.snapds.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.events.AuditDecision.Outcome;
import io.snapds.events.example.JobLauncher;
import io.snapds.events.example.MarkerFileJobLauncher;
import io.snapds.events.example.QualityGateExample;
import io.snapds.events.example.StartJobOnPublish;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, the event-driven quality gate ({@link AuditGate}, {@link QualityGateExample}) on the
 * HBase mini cluster: a STAGED event handled many times publishes once; a stage that fails a check
 * is discarded and the current snapshot stays; a gate or a job consumer killed anywhere and
 * restarted ends with one decision per stage and one downstream job per published snapshot; two
 * deliveries that race with opposite verdicts decide once. Each test reads the snapshot records,
 * the events and what a reader of the current snapshot gets.
 */
@ExtendWith(MiniClusterExtension.class)
class AuditGateIT {
  private final SnapshotDatasets datasets = MiniCluster.get().datasets();

  @TempDir
  Path jobs;

  /** A price list of {@code rows} products; {@code price} gives each one's price, null for none. */
  private static SnapshotWriter write(SnapshotDataset ds, int rows, IntFunction<String> price) {
    SnapshotWriter w = ds.newSnapshot().begin();
    for (int i = 0; i < rows; i++) {
      byte[] key = Bytes.toBytes(String.format("p%04d", i));
      String p = price.apply(i);
      if (p == null) {
        w.put(key, "d", "name", Bytes.toBytes("product " + i));
      } else {
        w.put(key, "d", "price", Bytes.toBytes(p));
      }
    }
    return w;
  }

  private static SnapshotWriter write(SnapshotDataset ds, int rows, String label) {
    return write(ds, rows, i -> label + "." + (i + 1));
  }

  private static TreeMap<String, String> currentRows(SnapshotDataset ds) {
    TreeMap<String, String> out = new TreeMap<>();
    try (RowScanner scanner = ds.readCurrent().scan(RowScan.all())) {
      for (SnapshotRow r : scanner) {
        out.put(r.keyAsString(), Bytes.toString(r.value("d", "price")));
      }
    }
    return out;
  }

  /** How many events of {@code type} name {@code snapshot}. */
  private static long events(SnapshotDataset ds, DatasetEvent.Type type, SnapshotId snapshot) {
    return ds.events(0, 10_000).stream()
        .filter(e -> e.type() == type && e.snapshot().equals(Optional.of(snapshot))).count();
  }

  /** Every PUBLISHED and DISCARDED event: "PUBLISHED id", in order. */
  private static List<String> decisions(SnapshotDataset ds) {
    return ds.events(0, 10_000).stream()
        .filter(e -> e.type() == DatasetEvent.Type.PUBLISHED || e.type() == DatasetEvent.Type.DISCARDED)
        .map(e -> e.type() + " " + e.snapshotId()).collect(Collectors.toList());
  }

  /** Polls the outbox until nothing new is handled. */
  private static void drain(EventConsumer consumer, SnapshotDataset ds) {
    while (consumer.pollOutbox(ds.id(), 100) > 0) {
      // handled some; poll again
    }
  }

  /** A launcher that counts the starts it made, over a marker directory shared by every restart. */
  private static final class CountingLauncher implements JobLauncher {
    private final MarkerFileJobLauncher markers;
    final List<String> starts = Collections.synchronizedList(new ArrayList<>());

    CountingLauncher(Path dir) {
      this.markers = new MarkerFileJobLauncher(dir);
    }

    @Override
    public boolean start(String runId, io.snapds.dataset.DatasetId dataset, SnapshotId snapshot) throws Exception {
      boolean started = markers.start(runId, dataset, snapshot);
      if (started) {
        starts.add(runId);
      }
      return started;
    }
  }

  private static List<String> jobsOf(SnapshotInfo... published) {
    List<String> out = new ArrayList<>();
    for (SnapshotInfo s : published) {
      out.add(StartJobOnPublish.runId(s.id()));
    }
    Collections.sort(out);
    return out;
  }

  @Test
  void aStagedEventDeliveredManyTimesPublishesOnceAndStartsOneJob() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("gate"), DatasetProperties.defaults());
    SnapshotInfo v1 = write(ds, 100, "1").commit();
    SnapshotInfo staged = write(ds, 110, "2").stage();
    AuditGate gate = QualityGateExample.gate(datasets).build();

    List<AuditDecision> decided = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      decided.add(gate.decide(ds.id(), staged.id()));
    }
    // three more deliveries through consumers of their own (a consumer that lost its position)
    for (int i = 0; i < 3; i++) {
      try (EventConsumer consumer = new EventConsumer(datasets, "audit-" + i, gate)) {
        drain(consumer, ds);
      }
    }

    assertEquals(Outcome.PUBLISHED, decided.get(0).outcome(), decided.get(0).toString());
    assertFalse(decided.get(0).decidedBefore());
    assertTrue(decided.get(0).reason().contains("row count 110 against 100 in base snapshot " + v1.id()),
        decided.get(0).reason());
    for (AuditDecision d : decided.subList(1, 5)) {
      assertEquals(Outcome.PUBLISHED, d.outcome());
      assertTrue(d.decidedBefore(), d.toString());
    }
    assertEquals(1, gate.published());
    assertEquals(0, gate.discarded());
    assertEquals(4 + 3, gate.decidedBefore());
    assertEquals(List.of("PUBLISHED " + v1.id(), "PUBLISHED " + staged.id()), decisions(ds));
    assertEquals(List.of(v1.id(), staged.id()), ds.history().stream().map(HistoryEntry::snapshot).toList());
    assertEquals(Optional.of(staged.id()), ds.currentSnapshot().map(SnapshotInfo::id));
    assertEquals(110, currentRows(ds).size());
    assertEquals("2.1", currentRows(ds).firstEntry().getValue());

    // the job consumer, and a second one that lost its position: one job per published snapshot
    CountingLauncher launcher = new CountingLauncher(jobs);
    try (EventConsumer jobs1 = QualityGateExample.jobConsumer(datasets, ds.id(), launcher);
         EventConsumer jobs2 = new EventConsumer(datasets, "downstream-replay", new StartJobOnPublish(ds.id(), launcher))) {
      drain(jobs1, ds);
      drain(jobs2, ds);
    }
    assertEquals(jobsOf(v1, staged), new MarkerFileJobLauncher(jobs).started());
    assertEquals(jobsOf(v1, staged), launcher.starts.stream().sorted().toList());
  }

  @Test
  void aStageThatFailsACheckIsDiscardedAndTheCurrentSnapshotStays() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("gate"), DatasetProperties.defaults());
    SnapshotInfo v1 = write(ds, 100, "1").commit();
    TreeMap<String, String> v1Rows = currentRows(ds);
    Map<SnapshotId, String> intended = Collections.synchronizedMap(new TreeMap<>());
    AuditGate gate = QualityGateExample.gate(datasets)
        .beforeDecision((dataset, snapshot, outcome, reason) -> intended.put(snapshot, outcome + ": " + reason))
        .build();

    SnapshotInfo tooFew = write(ds, 50, "2").stage();
    SnapshotInfo missingPrice = write(ds, 100, i -> i == 37 ? null : "3." + (i + 1)).stage();
    SnapshotInfo negative = write(ds, 100, i -> i == 5 ? "-1.00" : "4." + (i + 1)).stage();
    try (EventConsumer audit = QualityGateExample.auditConsumer(datasets, gate)) {
      drain(audit, ds);
      assertEquals(Optional.of(v1.id()), ds.currentSnapshot().map(SnapshotInfo::id));
      assertEquals(v1Rows, currentRows(ds), "a reader of the current snapshot still reads v1");
      for (SnapshotInfo s : List.of(tooFew, missingPrice, negative)) {
        SnapshotInfo now = ds.snapshot(s.id());
        assertTrue(now.discarded(), now.toString());
        assertEquals(1, events(ds, DatasetEvent.Type.DISCARDED, s.id()));
        assertEquals(0, events(ds, DatasetEvent.Type.PUBLISHED, s.id()));
      }
      assertTrue(intended.get(tooFew.id()).startsWith("DISCARDED: failed row count: row count 50 against 100"),
          intended.get(tooFew.id()));
      assertTrue(intended.get(missingPrice.id()).contains("no missing price: 1 of 100 rows have no d:price"
          + " (first: key 'p0037')"), intended.get(missingPrice.id()));
      assertTrue(intended.get(negative.id()).contains("prices positive: key 'p0005' has price -1.00"),
          intended.get(negative.id()));
      assertEquals(3, gate.discarded());

      SnapshotInfo good = write(ds, 105, "5").stage();
      drain(audit, ds);
      assertEquals(Optional.of(good.id()), ds.currentSnapshot().map(SnapshotInfo::id));
      assertEquals(105, currentRows(ds).size());
      assertEquals(1, gate.published());
    }
    assertEquals(List.of("PUBLISHED " + v1.id(), "DISCARDED " + tooFew.id(), "DISCARDED " + missingPrice.id(),
        "DISCARDED " + negative.id(), "PUBLISHED " + ds.currentSnapshot().orElseThrow().id()), decisions(ds));
    CountingLauncher launcher = new CountingLauncher(jobs);
    try (EventConsumer jobConsumer = QualityGateExample.jobConsumer(datasets, ds.id(), launcher)) {
      drain(jobConsumer, ds);
    }
    assertEquals(jobsOf(v1, ds.currentSnapshot().orElseThrow()), new MarkerFileJobLauncher(jobs).started(),
        "no job for a discarded stage");
  }

  @Test
  void consumersKilledMidWayAndRestartedDecideOnceAndStartOneJobPerPublish() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("gate"), DatasetProperties.defaults());
    SnapshotInfo v1 = write(ds, 100, "1").commit();

    // 1. killed between the checks and the publish: nothing decided, the event is not recorded
    SnapshotInfo s2 = write(ds, 100, "2").stage();
    AuditGate killedGate = QualityGateExample.gate(datasets).beforeDecision((dataset, snapshot, outcome, reason) -> {
      throw new IllegalStateException("killed before the " + outcome);
    }).build();
    long stagedSeq = ds.events(0, 100).stream()
        .filter(e -> e.type() == DatasetEvent.Type.STAGED && e.snapshotId().equals(s2.id()))
        .findFirst().orElseThrow().sequence();
    try (EventConsumer audit = QualityGateExample.auditConsumer(datasets, killedGate)) {
      EventHandlingException killed = assertThrows(EventHandlingException.class, () -> drain(audit, ds));
      assertEquals(DatasetEvent.Type.STAGED, killed.event().type());
      assertEquals(stagedSeq - 1, audit.position(ds.id()), "the event it was killed on is not recorded");
    }
    assertEquals(SnapshotState.STAGED, ds.snapshot(s2.id()).state());
    assertEquals(Optional.of(v1.id()), ds.currentSnapshot().map(SnapshotInfo::id));
    AuditGate restarted = QualityGateExample.gate(datasets).build();
    try (EventConsumer audit = QualityGateExample.auditConsumer(datasets, restarted)) {
      drain(audit, ds);
    }
    assertEquals(Optional.of(s2.id()), ds.currentSnapshot().map(SnapshotInfo::id));
    assertEquals(1, restarted.published());

    // 2. killed after the publish committed, before the consumer recorded the event
    SnapshotInfo s3 = write(ds, 100, "3").stage();
    AuditGate gate = QualityGateExample.gate(datasets).build();
    AtomicBoolean killAfter = new AtomicBoolean(true);
    EventHandler killedAfterDecision = event -> {
      gate.handle(event);
      if (event.type() == DatasetEvent.Type.STAGED && killAfter.getAndSet(false)) {
        throw new IllegalStateException("killed after the decision");
      }
    };
    try (EventConsumer audit = new EventConsumer(datasets, QualityGateExample.AUDIT_CONSUMER, killedAfterDecision)) {
      assertThrows(EventHandlingException.class, () -> drain(audit, ds));
    }
    assertEquals(Optional.of(s3.id()), ds.currentSnapshot().map(SnapshotInfo::id));
    AuditGate restarted2 = QualityGateExample.gate(datasets).build();
    try (EventConsumer audit = QualityGateExample.auditConsumer(datasets, restarted2)) {
      drain(audit, ds);
    }
    assertEquals(0, restarted2.published());
    assertEquals(1, restarted2.decidedBefore(), "the redelivered STAGED event found it published");

    // 3. killed between the checks and the discard
    SnapshotInfo s4 = write(ds, 10, "4").stage();
    AtomicBoolean killDiscard = new AtomicBoolean(true);
    AuditGate killedBeforeDiscard = QualityGateExample.gate(datasets).beforeDecision((dataset, snapshot, outcome, r) -> {
      if (killDiscard.getAndSet(false)) {
        throw new IllegalStateException("killed before the " + outcome);
      }
    }).build();
    try (EventConsumer audit = QualityGateExample.auditConsumer(datasets, killedBeforeDiscard)) {
      assertThrows(EventHandlingException.class, () -> drain(audit, ds));
      assertEquals(SnapshotState.STAGED, ds.snapshot(s4.id()).state());
      drain(audit, ds); // the same process polls again
    }
    assertTrue(ds.snapshot(s4.id()).discarded());
    assertEquals(1, killedBeforeDiscard.discarded());

    assertEquals(List.of("PUBLISHED " + v1.id(), "PUBLISHED " + s2.id(), "PUBLISHED " + s3.id(),
        "DISCARDED " + s4.id()), decisions(ds), "one decision per stage");
    assertEquals(Optional.of(s3.id()), ds.currentSnapshot().map(SnapshotInfo::id));

    // the job consumer killed after a start, before it recorded the event, then restarted
    CountingLauncher launcher = new CountingLauncher(jobs);
    AtomicInteger startsBeforeKill = new AtomicInteger(2);
    JobLauncher killedAfterStart = (runId, dataset, snapshot) -> {
      boolean started = launcher.start(runId, dataset, snapshot);
      if (startsBeforeKill.decrementAndGet() == 0) {
        throw new IllegalStateException("killed after starting " + runId);
      }
      return started;
    };
    try (EventConsumer jobConsumer = QualityGateExample.jobConsumer(datasets, ds.id(), killedAfterStart)) {
      assertThrows(EventHandlingException.class, () -> drain(jobConsumer, ds));
    }
    assertEquals(jobsOf(v1, s2), new MarkerFileJobLauncher(jobs).started());
    try (EventConsumer jobConsumer = QualityGateExample.jobConsumer(datasets, ds.id(), launcher)) {
      drain(jobConsumer, ds);
    }
    assertEquals(jobsOf(v1, s2, s3), new MarkerFileJobLauncher(jobs).started());
    assertEquals(jobsOf(v1, s2, s3), launcher.starts.stream().sorted().toList(), "each job started once");
  }

  @Test
  void twoDeliveriesRacingWithOppositeVerdictsDecideOnce() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("gate"), DatasetProperties.defaults());
    write(ds, 100, "1").commit();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 4; round++) {
        SnapshotInfo s = write(ds, 100, "r" + round).stage();
        Optional<SnapshotId> currentBefore = ds.currentSnapshot().map(SnapshotInfo::id);
        // both deliveries ran their checks before either decides
        CyclicBarrier bothChecked = new CyclicBarrier(2);
        AuditGate.DecisionHook meet = (dataset, snapshot, outcome, reason) -> bothChecked.await(2, TimeUnit.MINUTES);
        AuditGate yes = AuditGate.builder(datasets).check("ok", (d, st) -> CheckResult.pass("fine"))
            .beforeDecision(meet).build();
        AuditGate no = AuditGate.builder(datasets).check("nope", (d, st) -> CheckResult.fail("not today"))
            .beforeDecision(meet).build();
        Future<AuditDecision> a = pool.submit(() -> yes.decide(ds.id(), s.id()));
        Future<AuditDecision> b = pool.submit(() -> no.decide(ds.id(), s.id()));
        AuditDecision da = a.get(5, TimeUnit.MINUTES);
        AuditDecision db = b.get(5, TimeUnit.MINUTES);

        assertEquals(da.outcome(), db.outcome(), da + " / " + db);
        assertTrue(da.decidedBefore() != db.decidedBefore(), "exactly one decided: " + da + " / " + db);
        SnapshotInfo record = ds.snapshot(s.id());
        long published = events(ds, DatasetEvent.Type.PUBLISHED, s.id());
        long discarded = events(ds, DatasetEvent.Type.DISCARDED, s.id());
        if (da.outcome() == Outcome.PUBLISHED) {
          assertTrue(record.committedAt().isPresent(), record.toString());
          assertEquals(Optional.of(s.id()), ds.currentSnapshot().map(SnapshotInfo::id));
          assertEquals(List.of(1L, 0L), List.of(published, discarded));
        } else {
          assertEquals(Outcome.DISCARDED, da.outcome());
          assertTrue(record.discarded(), record.toString());
          assertEquals(currentBefore, ds.currentSnapshot().map(SnapshotInfo::id));
          assertEquals(List.of(0L, 1L), List.of(published, discarded));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A delivery that ran its checks and is about to decide while another delivery with the opposite
   * verdict decides first: its publish or discard is refused, and it returns the first decision.
   */
  private static AuditDecision lateDelivery(ExecutorService pool, AuditGate.Builder late, AuditGate first,
      SnapshotDataset ds, SnapshotId staged, List<AuditDecision> firstDecision) throws Exception {
    CountDownLatch checked = new CountDownLatch(1);
    CountDownLatch decideNow = new CountDownLatch(1);
    AuditGate lateGate = late.beforeDecision((dataset, snapshot, outcome, reason) -> {
      checked.countDown();
      assertTrue(decideNow.await(2, TimeUnit.MINUTES), "the first delivery did not decide");
    }).build();
    Future<AuditDecision> result = pool.submit(() -> lateGate.decide(ds.id(), staged));
    assertTrue(checked.await(2, TimeUnit.MINUTES), "the late delivery did not finish its checks");
    firstDecision.add(first.decide(ds.id(), staged));
    decideNow.countDown();
    return result.get(5, TimeUnit.MINUTES);
  }

  @Test
  void aLateDeliveryWithTheOppositeVerdictReturnsTheFirstDecision() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("gate"), DatasetProperties.defaults());
    SnapshotInfo v1 = write(ds, 100, "1").commit();
    AuditGate.Builder yes = AuditGate.builder(datasets).check("ok", (d, st) -> CheckResult.pass("fine"));
    AuditGate.Builder no = AuditGate.builder(datasets).check("nope", (d, st) -> CheckResult.fail("not today"));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      // published first; the late discard is refused
      SnapshotInfo s2 = write(ds, 100, "2").stage();
      List<AuditDecision> first = new ArrayList<>();
      AuditDecision late = lateDelivery(pool, no, yes.build(), ds, s2.id(), first);
      assertEquals(Outcome.PUBLISHED, first.get(0).outcome());
      assertFalse(first.get(0).decidedBefore());
      assertEquals(Outcome.PUBLISHED, late.outcome(), late.toString());
      assertTrue(late.decidedBefore());
      assertTrue(late.reason().contains("its discard was refused"), late.reason());
      assertEquals(Optional.of(s2.id()), ds.currentSnapshot().map(SnapshotInfo::id));

      // discarded first; the late publish is refused
      SnapshotInfo s3 = write(ds, 100, "3").stage();
      first.clear();
      late = lateDelivery(pool, yes, no.build(), ds, s3.id(), first);
      assertEquals(Outcome.DISCARDED, first.get(0).outcome());
      assertFalse(first.get(0).decidedBefore());
      assertEquals(Outcome.DISCARDED, late.outcome(), late.toString());
      assertTrue(late.decidedBefore());
      assertTrue(late.reason().contains("its publish was refused"), late.reason());
      assertTrue(ds.snapshot(s3.id()).discarded());
      assertEquals(Optional.of(s2.id()), ds.currentSnapshot().map(SnapshotInfo::id));

      assertEquals(List.of("PUBLISHED " + v1.id(), "PUBLISHED " + s2.id(), "DISCARDED " + s3.id()), decisions(ds));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aStageWhoseBaseMovedIsDiscardedUnlessTheGateReplacesTheCurrentSnapshot() throws Exception {
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("gate"), DatasetProperties.defaults());
    SnapshotInfo v1 = write(ds, 100, "1").commit();
    SnapshotInfo staged = write(ds, 100, "2").stage();
    SnapshotInfo direct = write(ds, 100, "3").commit(); // published meanwhile, without an audit
    AuditDecision d = QualityGateExample.gate(datasets).build().decide(ds.id(), staged.id());
    assertEquals(Outcome.DISCARDED, d.outcome());
    assertTrue(d.reason().startsWith("checks passed, but its base moved: staged on " + v1.id() + ", current is "
        + direct.id()), d.reason());
    assertEquals(Optional.of(direct.id()), ds.currentSnapshot().map(SnapshotInfo::id));

    SnapshotInfo staged2 = write(ds, 100, "4").stage();
    write(ds, 100, "5").commit();
    AuditDecision replaced = QualityGateExample.gate(datasets).replaceCurrent().build().decide(ds.id(), staged2.id());
    assertEquals(Outcome.PUBLISHED, replaced.outcome());
    assertEquals(Optional.of(staged2.id()), ds.currentSnapshot().map(SnapshotInfo::id));
    assertEquals("4.1", currentRows(ds).firstEntry().getValue());
  }

  @Test
  void aGateNeedsNamedChecks() {
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> AuditGate.builder(datasets).build());
    assertEquals("an audit gate needs at least one check", none.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> AuditGate.builder(datasets).check("a", (d, s) -> CheckResult.pass("x")).check("a", (d, s) -> CheckResult.pass("y")));
    assertEquals("a check named 'a' was added already", twice.getMessage());
    IllegalArgumentException fraction = assertThrows(IllegalArgumentException.class,
        () -> AuditChecks.rowCountWithin(-0.1));
    assertEquals("maxChange must be a finite fraction >= 0, got -0.1", fraction.getMessage());
  }
}
