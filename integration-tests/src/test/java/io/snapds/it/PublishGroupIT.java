package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.FencedWriterException;
import io.snapds.dataset.PublishMode;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotStateException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.StagedBaseMovedException;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 39: several datasets published together. Every member becomes current in one transaction
 * or none does; a reader that reads them all in one transaction never sees a mix of generations;
 * a refused member publishes nothing anywhere; a group rolls back together.
 */
@ExtendWith(MiniClusterExtension.class)
class PublishGroupIT {
  private final MiniCluster cluster = MiniCluster.get();

  private SnapshotDataset create(String name) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(name), DatasetProperties.builder()
        .lockSettings(LockSettings.builder().acquireTimeout(Duration.ZERO).retryAttempts(1).build()).build());
  }

  /** A snapshot whose every row holds {@code generation}. */
  private static SnapshotWriter write(SnapshotDataset ds, int generation, int rows) {
    SnapshotWriter w = ds.newSnapshot().begin();
    for (int i = 0; i < rows; i++) {
      w.put(Fixtures.key(i), "d", "v", Bytes.toBytes(Integer.toString(generation)));
    }
    return w;
  }

  /** The generations the rows of what {@code scanner} reads hold (one, if the snapshot is whole). */
  private static TreeSet<String> generations(RowScanner scanner, int[] rows) {
    TreeSet<String> out = new TreeSet<>();
    try (scanner) {
      for (SnapshotRow r : scanner) {
        out.add(Bytes.toString(r.families().get(Bytes.toBytes("d")).get(Bytes.toBytes("v"))));
        rows[0]++;
      }
    }
    return out;
  }

  private static String generation(SnapshotDataset ds) {
    return generations(ds.readCurrent().scan(RowScan.all()), new int[1]).first();
  }

  @Test
  void readersOfThreeDatasetsInOneTransactionNeverSeeAMix() throws Exception {
    SnapshotDataset[] ds = {create("grpA"), create("grpB"), create("grpC")};
    SnapshotDatasets datasets = cluster.datasets();
    for (SnapshotDataset d : ds) {
      write(d, 0, 4).commit();
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger published = new AtomicInteger();
    ConcurrentLinkedQueue<String> mixed = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        readers.add(pool.submit(() -> {
          SnapshotDataset[] mine = new SnapshotDataset[ds.length];
          for (int i = 0; i < ds.length; i++) {
            mine[i] = datasets.open(ds[i].id());
          }
          while (!stop.get() || reads.get() < 2000) {
            TransactionContext ctx = new TransactionContext(cluster.txClient(), mine);
            ctx.start();
            TreeSet<String> seen = new TreeSet<>();
            List<String> each = new ArrayList<>();
            for (SnapshotDataset d : mine) {
              int[] rows = new int[1];
              TreeSet<String> g = generations(d.scan(RowScan.all()), rows);
              each.add(d.pinnedSnapshot().orElseThrow() + "=" + g + "/" + rows[0]);
              seen.addAll(g);
              if (rows[0] != 4) {
                mixed.add("a short read: " + each);
              }
            }
            ctx.finish();
            if (seen.size() != 1) {
              mixed.add("generations " + seen + " in one transaction: " + each);
            }
            reads.incrementAndGet();
          }
          return null;
        }));
      }
      Future<?> writer = pool.submit(() -> {
        for (int g = 1; g <= 40; g++) {
          int gen = g;
          SnapshotWriter a = write(ds[0], gen, 4);
          SnapshotInfo b = write(ds[1], gen, 4).stage(); // members may be staged or open writers
          SnapshotWriter c = write(ds[2], gen, 4);
          Map<DatasetId, SnapshotInfo> out = datasets.publishTogether().id("gen-" + gen)
              .writer(a).staged(ds[1], b.id()).writer(c).publish();
          out.values().forEach(s -> assertEquals(Optional.of("gen-" + gen), s.group()));
          published.incrementAndGet();
        }
        return null;
      });
      writer.get();
      stop.set(true);
      for (Future<?> r : readers) {
        r.get();
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
    assertEquals(List.of(), List.copyOf(mixed), "readers saw a mix of generations");
    assertEquals(40, published.get());
    assertTrue(reads.get() >= 2000, "reads: " + reads.get());
    for (SnapshotDataset d : ds) {
      assertEquals("40", generation(d));
      assertTrue(d.history().stream().anyMatch(h -> h.reason().equals("publish group gen-40")), d.history().toString());
    }
  }

  @Test
  void aMemberWhoseLockWasTakenOverPublishesNothingAnywhere() {
    SnapshotDataset a = create("grpFenceA");
    SnapshotDataset b = create("grpFenceB");
    write(a, 1, 2).commit();
    write(b, 1, 2).commit();
    SnapshotWriter wa = write(a, 2, 2);
    SnapshotWriter wb = write(b, 2, 2);
    // another writer takes b's lock over (its lease broken, as a reconcile pass does for a stalled writer)
    b.breakLock(b.lockStatus().get(0).lockName());
    SnapshotWriter other = write(b, 3, 2);
    assertThrows(FencedWriterException.class, () -> cluster.datasets().publishTogether().writer(wa).writer(wb).publish());
    assertEquals("1", generation(a), "a's snapshot was not published");
    assertEquals("1", generation(b));
    assertEquals(SnapshotState.ABORTED, b.snapshot(wb.snapshotId()).state(), "the fenced member gave up");
    assertEquals(SnapshotState.BUILDING, a.snapshot(wa.snapshotId()).state(), "the other member is still open");
    // the other member can still publish on its own, and the writer that took b's lock too
    wa.commit();
    other.commit();
    assertEquals("2", generation(a));
    assertEquals("3", generation(b));
  }

  @Test
  void aRefusedStagedMemberPublishesNothingAndTheRetryPublishesOnce() {
    SnapshotDataset a = create("grpBaseA");
    SnapshotDataset b = create("grpBaseB");
    write(a, 1, 2).commit();
    write(b, 1, 2).commit();
    SnapshotInfo sa = write(a, 2, 2).stage();
    SnapshotInfo sb = write(b, 2, 2).stage();
    write(b, 9, 2).commit(); // b moved on since the stage
    assertThrows(StagedBaseMovedException.class,
        () -> cluster.datasets().publishTogether().staged(a, sa.id()).staged(b, sb.id()).publish());
    assertEquals("1", generation(a), "the first member's publish was rolled back with the group");
    assertEquals(SnapshotState.STAGED, a.snapshot(sa.id()).state());

    Map<DatasetId, SnapshotInfo> first = cluster.datasets().publishTogether().id("retry-1")
        .mode(PublishMode.REPLACE_CURRENT).staged(a, sa.id()).staged(b, sb.id()).publish();
    Map<DatasetId, SnapshotInfo> again = cluster.datasets().publishTogether().id("retry-1")
        .staged(a, sa.id()).staged(b, sb.id()).publish();
    assertEquals(first, again, "a retried group publishes once");
    assertEquals("2", generation(a));
    assertEquals("2", generation(b));
    assertEquals(1, a.history().stream().filter(h -> h.snapshot().equals(sa.id())).count());

    assertThrows(SnapshotNotAvailableException.class, () -> cluster.datasets().publishTogether()
        .staged(a, SnapshotId.of(77)).staged(b, sb.id()).publish());
    assertThrows(IllegalArgumentException.class, () -> cluster.datasets().publishTogether().staged(a, sa.id())
        .staged(a, sa.id()), "a dataset is in a group once");
  }

  /**
   * From the review of the first version, where each of these returned a map as if the whole
   * group were published while one member did not become current: a keyed writer behind a newer
   * current snapshot, a writer whose run id another writer took, a staged member published apart.
   */
  @Test
  void aMemberThatCannotBecomeCurrentFailsTheWholeGroup() {
    SnapshotDataset a = create("grpWholeA");
    SnapshotDataset b = create("grpWholeB");
    write(a, 1, 2).commit();
    write(b, 1, 2).commit();

    SnapshotWriter keyed = b.newSnapshot().sourceKey("k").begin();
    keyed.put(Fixtures.key(0), "d", "v", Bytes.toBytes("2"));
    write(b, 5, 2).commit(); // newer and unkeyed: the keyed one would only commit, not become current
    try (SnapshotWriter wa = write(a, 2, 2)) {
      assertThrows(io.snapds.dataset.SupersededSnapshotException.class,
          () -> cluster.datasets().publishTogether().writer(wa).writer(keyed).publish());
    }
    assertEquals("1", generation(a));
    assertEquals("5", generation(b));

    SnapshotWriter first = b.newSnapshot().runId("r").sourceKey("x").begin();
    SnapshotWriter second = b.newSnapshot().runId("r").begin(); // another lock, the same run
    first.put(Fixtures.key(0), "d", "v", Bytes.toBytes("6"));
    first.stage();
    second.put(Fixtures.key(0), "d", "v", Bytes.toBytes("7"));
    try (SnapshotWriter wa = write(a, 3, 2)) {
      assertThrows(SnapshotNotAvailableException.class,
          () -> cluster.datasets().publishTogether().writer(wa).writer(second).publish());
    }
    assertEquals("1", generation(a));
    assertEquals("5", generation(b));

    SnapshotInfo sa = write(a, 4, 2).stage();
    SnapshotInfo sb = write(b, 4, 2).stage();
    a.publish(sa.id());
    write(a, 8, 2).commit();
    assertThrows(SnapshotStateException.class,
        () -> cluster.datasets().publishTogether().staged(a, sa.id()).staged(b, sb.id()).publish(),
        "a stage published apart is refused in a group");
    assertEquals("5", generation(b), "b's stage was not published without its partner");
    assertEquals(SnapshotState.STAGED, b.snapshot(sb.id()).state());
  }

  /** From the review: each member took its own commit time, so time travel by time could see half a group. */
  @Test
  void everyMemberRecordsTheGroupAtOneTime() {
    SnapshotDatasets fixed = cluster.datasets().withTestCommitClock(
        java.time.Clock.fixed(java.time.Instant.parse("2026-03-01T00:00:00Z"), java.time.ZoneOffset.UTC));
    SnapshotDataset a = fixed.open(create("grpTimeA").id());
    SnapshotDataset b = fixed.open(create("grpTimeB").id());
    for (int i = 1; i <= 3; i++) {
      write(a, i, 1).commit(); // a's last history time runs ahead of the fixed clock: T, T+1, T+2
    }
    write(b, 1, 1).commit();
    fixed.publishTogether().id("same-time").writer(write(a, 9, 1)).writer(write(b, 9, 1)).publish();
    java.time.Instant atA = a.history().get(a.history().size() - 1).at();
    java.time.Instant atB = b.history().get(b.history().size() - 1).at();
    assertEquals(atA, atB, "one group, one time");
    assertEquals("9", generations(b.readAsOf(atA).scan(RowScan.all()), new int[1]).first());
    assertEquals("1", generations(b.readAsOf(atA.minusMillis(1)).scan(RowScan.all()), new int[1]).first());
  }

  @Test
  void aGroupRollsBackWholeOrNotAtAll() {
    SnapshotDataset a = create("grpWholeRbA");
    SnapshotDataset b = create("grpWholeRbB");
    write(a, 1, 2).commit();
    write(b, 1, 2).commit();
    cluster.datasets().publishTogether().id("pair").writer(write(a, 2, 2)).writer(write(b, 2, 2)).publish();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> cluster.datasets().rollbackGroup("pair", a));
    assertTrue(e.getMessage().contains(b.id().toString()), e.getMessage());
    assertEquals("2", generation(a));
  }

  /**
   * A process killed mid-commit: every member's writes are in HBase, the transaction's commit
   * never reached Tephra. No reader, in a transaction over both datasets or alone, ever sees a
   * member new, before or after Tephra's timeout ends the transaction.
   */
  @Test
  void aCrashAfterTheMembersWritesAndBeforeTheCommitLeavesNoneCurrent() throws Exception {
    SnapshotDataset a = create("grpCrashA");
    SnapshotDataset b = create("grpCrashB");
    write(a, 1, 3).commit();
    write(b, 1, 3).commit();
    HookedTxClient hooked = new HookedTxClient(cluster);
    SnapshotDatasets dying = SnapshotDatasets.using(cluster.connection(), hooked);
    SnapshotDataset da = dying.open(a.id());
    SnapshotDataset db = dying.open(b.id());
    SnapshotWriter wa = write(da, 2, 3);
    SnapshotWriter wb = write(db, 2, 3);
    hooked.beforeNextCommit(() -> {
      throw new IllegalStateException("the process was killed");
    });
    assertThrows(io.snapds.dataset.CommitStateUnknownException.class,
        () -> dying.publishTogether().writer(wa).writer(wb).publish());
    for (int round = 0; round < 2; round++) {
      TransactionContext ctx = new TransactionContext(cluster.txClient(), a, b);
      ctx.start();
      assertEquals("1", generations(a.scan(RowScan.all()), new int[1]).first(), "round " + round);
      assertEquals("1", generations(b.scan(RowScan.all()), new int[1]).first(), "round " + round);
      ctx.finish();
      assertEquals("1", generation(a));
      assertEquals("1", generation(b));
      cluster.endLeftoverTransactions(); // Tephra's timeout: the killed commit's transaction ends invalid
    }
    assertEquals(SnapshotState.BUILDING, a.snapshot(wa.snapshotId()).state(), "its record was never committed");
  }

  @Test
  void aGroupRollsBackTogether() {
    SnapshotDataset a = create("grpRbA");
    SnapshotDataset b = create("grpRbB");
    SnapshotInfo a1 = write(a, 1, 2).commit();
    SnapshotInfo b1 = write(b, 1, 2).commit();
    cluster.datasets().publishTogether().id("nightly").writer(write(a, 2, 2)).writer(write(b, 2, 2)).publish();
    SnapshotInfo b3 = write(b, 3, 2).commit(); // b moved on alone: the group is no longer current there
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> cluster.datasets().rollbackGroup("nightly", a, b));
    assertTrue(e.getMessage().contains(b3.id().toString()), e.getMessage());
    assertEquals("2", generation(a), "a refused group rollback moves no member");

    b.rollbackTo(b.history().stream().filter(h -> h.reason().equals("publish group nightly")).findFirst()
        .orElseThrow().snapshot()).commit();
    Map<DatasetId, SnapshotId> back = cluster.datasets().rollbackGroup("nightly", a, b);
    assertEquals(Map.of(a.id(), a1.id(), b.id(), b1.id()), back);
    assertEquals("1", generation(a));
    assertEquals("1", generation(b));
    assertTrue(a.history().get(a.history().size() - 1).reason().equals("rollback group nightly"));
  }
}
