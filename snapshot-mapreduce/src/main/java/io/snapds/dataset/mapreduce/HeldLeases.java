package io.snapds.dataset.mapreduce;

import io.snapds.dataset.LeaseHold;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer leases this process holds for the snapshots its submissions began, from
 * {@code checkOutputSpecs} until the committer (in the application master) has published or
 * aborted the snapshot: between the two nothing else renews the lease, and the application
 * master may wait in a queue for longer than the lease lasts. Each hold keeps the datasets it
 * renews through open and closes them when it ends, which it does by itself once the committer
 * released the lock (or when the build's maximum time has passed); the committer, when it runs
 * in this process (the local job runner), and {@link SnapshotMapReduceUtil#runJob} end it at once.
 */
final class HeldLeases {
  private static final Logger LOG = LoggerFactory.getLogger(HeldLeases.class);
  private static final Map<SnapshotId, LeaseHold> HELD = new ConcurrentHashMap<>();

  private HeldLeases() {}

  /** Keeps {@code hold} until it ends, then closes {@code datasets}. */
  static void hold(JobDatasets datasets, LeaseHold hold) {
    SnapshotId id = hold.handle().snapshotId();
    HELD.put(id, hold);
    hold.whenEnded(() -> {
      HELD.remove(id, hold);
      try {
        datasets.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("closing the connection that renewed the lease of snapshot {} failed: {}", id, e.toString());
      }
    });
  }

  /** Ends this process's hold of {@code snapshot}'s lease; false if it holds none. */
  static boolean release(SnapshotId snapshot) {
    LeaseHold hold = HELD.get(snapshot);
    if (hold == null) {
      return false;
    }
    hold.close(); // its end action forgets it and closes its datasets
    return true;
  }

  /** Whether this process renews the lease of {@code snapshot}. */
  static boolean holds(SnapshotId snapshot) {
    return HELD.containsKey(snapshot);
  }
}
