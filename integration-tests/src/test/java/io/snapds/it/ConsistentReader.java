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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.tephra.TransactionContext;

/**
 * A reader that, until told to stop, pins the current snapshot in a Tephra transaction, scans it
 * whole and checks it against its summary; it records every violation (a torn read, an id
 * older than one it saw before) and returns the ids it saw. Made {@link #tolerating} failures
 * (for fault injection), a read that fails with an exception is counted as failed, aborted and
 * tried again: a failed read is allowed, a wrong one never.
 */
final class ConsistentReader implements Callable<List<SnapshotId>> {
  private final MiniCluster cluster;
  private final DatasetId dataset;
  private final BooleanSupplier done;
  private final Queue<String> violations;
  private final AtomicInteger failures;

  ConsistentReader(MiniCluster cluster, DatasetId dataset, BooleanSupplier done, Queue<String> violations) {
    this(cluster, dataset, done, violations, null);
  }

  private ConsistentReader(MiniCluster cluster, DatasetId dataset, BooleanSupplier done, Queue<String> violations,
      AtomicInteger failures) {
    this.cluster = cluster;
    this.dataset = dataset;
    this.done = done;
    this.violations = violations;
    this.failures = failures;
  }

  /** A reader that counts failed reads in {@code failures} and carries on. */
  static ConsistentReader tolerating(MiniCluster cluster, DatasetId dataset, BooleanSupplier done,
      Queue<String> violations, AtomicInteger failures) {
    return new ConsistentReader(cluster, dataset, done, violations, failures);
  }

  @Override
  public List<SnapshotId> call() throws Exception {
    List<SnapshotId> seen = new ArrayList<>();
    SnapshotDataset ds = cluster.datasets().open(dataset);
    do {
      if (failures == null) {
        readOnce(ds, seen);
        continue;
      }
      try {
        readOnce(ds, seen);
      } catch (Exception e) {
        failures.incrementAndGet();
        Thread.sleep(50);
      }
    } while (!done.getAsBoolean());
    return seen;
  }

  private void readOnce(SnapshotDataset ds, List<SnapshotId> seen) throws Exception {
    // the transaction client may change (a restarted transaction manager): take the current one
    TransactionContext ctx = new TransactionContext(cluster.txClient(), ds);
    ctx.start();
    SnapshotId pinned;
    SnapshotInfo info;
    Fixtures.Observation o;
    try {
      pinned = ds.snapshotId();
      info = ds.snapshot(pinned);
      o = Fixtures.observe(ds);
    } catch (Exception e) {
      try {
        ctx.abort();
      } catch (Exception ignored) {
        // failing anyway
      }
      throw e;
    }
    ctx.finish();
    if (!o.matches(info)) {
      violations.add("torn read of " + pinned + ": " + o + " vs " + info);
    }
    if (!seen.isEmpty() && pinned.compareTo(seen.get(seen.size() - 1)) < 0) {
      violations.add("went backwards: " + seen.get(seen.size() - 1) + " then " + pinned);
    }
    seen.add(pinned);
  }
}
