package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 8 writers x 20 publishes with 4 readers: the publish log's ids strictly increase, nothing is
 * published twice, every reader's ids never go backwards, and every read is one complete snapshot;
 * the event outbox numbers every change of the run without a gap and lists each publish once, in
 * commit order.
 */
@ExtendWith(MiniClusterExtension.class)
class WritersHistoryIT {
  private static final int WRITERS = 8;
  private static final int PUBLISHES = 20;
  private static final int READERS = 4;

  @Test
  void historyOfManyWritersIsOneStrictlyIncreasingSequence() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset created = cluster.datasets().create(MiniCluster.uniqueDataset("writers"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(3))
            .lockSettings(LockSettings.builder().acquireTimeout(Duration.ofMinutes(2)).build()).build());
    Fixtures.writeAndCommit(created.newSnapshot().begin(), "seed", 5);

    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    List<Future<List<SnapshotId>>> readers = new ArrayList<>();
    for (int r = 0; r < READERS; r++) {
      readers.add(pool.submit(new ConsistentReader(cluster, created.id(), done::get, violations)));
    }
    List<Future<List<SnapshotId>>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      writers.add(pool.submit(() -> {
        SnapshotDataset ds = cluster.datasets().open(created.id());
        List<SnapshotId> mine = new ArrayList<>();
        for (int p = 0; p < PUBLISHES; p++) {
          String label = "w" + writer + "p" + p;
          mine.add(Fixtures.writeAndCommit(ds.newSnapshot().owner("writer-" + writer).begin(), label,
              1 + (writer * 13 + p * 7) % 40).id());
        }
        return mine;
      }));
    }
    List<SnapshotId> published = new ArrayList<>();
    try {
      for (Future<List<SnapshotId>> f : writers) {
        published.addAll(f.get());
      }
    } finally {
      done.set(true);
    }
    int reads = 0;
    for (Future<List<SnapshotId>> f : readers) {
      reads += f.get().size();
    }
    pool.shutdown();

    assertEquals(List.of(), List.copyOf(violations), "over " + reads + " reads");
    assertEquals(WRITERS * PUBLISHES, new HashSet<>(published).size(), "no snapshot published twice");
    List<SnapshotId> log = created.history().stream().filter(h -> h.reason().equals("publish"))
        .map(HistoryEntry::snapshot).toList();
    assertEquals(WRITERS * PUBLISHES + 1, log.size());
    for (int i = 1; i < log.size(); i++) {
      assertTrue(log.get(i).isAfter(log.get(i - 1)), "publish log strictly increasing at " + i);
    }
    assertEquals(new HashSet<>(published), new HashSet<>(log.subList(1, log.size())));
    for (int i = 1; i < log.size(); i++) {
      assertEquals(log.get(i - 1), created.snapshot(log.get(i)).parentId().orElseThrow(), "parent chain");
    }

    // the outbox (#13): every change of the run has one event, numbered 1..N without a gap across
    // the writers' conflicting commits; the PUBLISHED events are exactly the publish log, in order
    List<DatasetEvent> events = created.events(0, 10_000);
    assertEquals(LongStream.rangeClosed(1, events.size()).boxed().toList(),
        events.stream().map(DatasetEvent::sequence).toList(), "gapless sequence");
    assertEquals(log, events.stream().filter(e -> e.type() == DatasetEvent.Type.PUBLISHED)
        .map(DatasetEvent::snapshotId).toList(), "each publish exactly once, in commit order");
    List<SnapshotId> expired = events.stream().filter(e -> e.type() == DatasetEvent.Type.EXPIRED)
        .map(DatasetEvent::snapshotId).toList();
    assertEquals(expired.size(), new HashSet<>(expired).size(), "no snapshot expired twice");
    assertTrue(new HashSet<>(log).containsAll(expired), "only published snapshots expire");
    for (int i = 1; i < events.size(); i++) {
      assertTrue(!events.get(i).commitTime().isBefore(events.get(i - 1).commitTime()), "commit order at " + i);
    }
    for (DatasetEvent e : events) {
      if (e.type() == DatasetEvent.Type.PUBLISHED) {
        assertEquals(created.snapshot(e.snapshotId()).rowCount(), e.rowCount(), "row count of " + e);
      }
    }
  }
}
