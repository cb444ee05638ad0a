package io.snapds.it;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import org.apache.tephra.TransactionContext;

/**
 * A reader that, until told to stop, pins the current snapshot in a Tephra transaction, scans it
 * whole and checks it against its summary; it records every violation (a torn read, an id
 * older than one it saw before) and returns the ids it saw.
 */
final class ConsistentReader implements Callable<List<SnapshotId>> {
  private final MiniCluster cluster;
  private final DatasetId dataset;
  private final BooleanSupplier done;
  private final Queue<String> violations;

  ConsistentReader(MiniCluster cluster, DatasetId dataset, BooleanSupplier done, Queue<String> violations) {
    this.cluster = cluster;
    this.dataset = dataset;
    this.done = done;
    this.violations = violations;
  }

  @Override
  public List<SnapshotId> call() throws Exception {
    SnapshotDataset ds = cluster.datasets().open(dataset);
    TransactionContext ctx = new TransactionContext(cluster.txClient(), ds);
    List<SnapshotId> seen = new ArrayList<>();
    do {
      ctx.start();
      SnapshotId pinned = ds.snapshotId();
      SnapshotInfo info = ds.snapshot(pinned);
      Fixtures.Observation o = Fixtures.observe(ds);
      ctx.finish();
      if (!o.matches(info)) {
        violations.add("torn read of " + pinned + ": " + o + " vs " + info);
      }
      if (!seen.isEmpty() && pinned.compareTo(seen.get(seen.size() - 1)) < 0) {
        violations.add("went backwards: " + seen.get(seen.size() - 1) + " then " + pinned);
      }
      seen.add(pinned);
    } while (!done.getAsBoolean());
    return seen;
  }
}
