package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 4 readers in Tephra transactions while a writer publishes 50 snapshots of different sizes (and
 * retention and cleanup run): every read is exactly one complete snapshot, and the ids each
 * reader sees never go backwards.
 */
@ExtendWith(MiniClusterExtension.class)
class ConcurrentReadersIT {
  private static final int SNAPSHOTS = 50;
  private static final int READERS = 4;

  @Test
  void everyReadSeesOneCompleteSnapshot() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDataset writer = cluster.datasets().create(MiniCluster.uniqueDataset("readers"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(2)).build());
    writeAndCommit(writer.newSnapshot().begin(), "s0", 10);

    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(READERS);
    List<Future<List<SnapshotId>>> readers = new ArrayList<>();
    for (int r = 0; r < READERS; r++) {
      readers.add(pool.submit(new ConsistentReader(cluster, writer.id(), done::get, violations)));
    }
    List<SnapshotId> published = new ArrayList<>();
    try {
      for (int i = 1; i <= SNAPSHOTS; i++) {
        published.add(writeAndCommit(writer.newSnapshot().begin(), "s" + i, 1 + (i * 37) % 300).id());
        if (i % 10 == 0) {
          writer.cleanup();
        }
      }
    } finally {
      done.set(true);
    }
    int reads = 0;
    for (Future<List<SnapshotId>> f : readers) {
      List<SnapshotId> seen = f.get();
      reads += seen.size();
      assertTrue(seen.size() >= 1);
    }
    pool.shutdown();
    assertEquals(List.of(), List.copyOf(violations), "violations over " + reads + " reads");
    assertEquals(published.get(SNAPSHOTS - 1), writer.currentSnapshot().orElseThrow().id());
    for (int i = 1; i < published.size(); i++) {
      assertTrue(published.get(i).isAfter(published.get(i - 1)), "ids increase");
    }
    writer.cleanup();
    assertEquals(2, writer.retainedSnapshots().size());
  }
}
