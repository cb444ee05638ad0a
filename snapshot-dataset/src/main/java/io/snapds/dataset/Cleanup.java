package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.DatasetState;
import io.snapds.dataset.store.MetadataStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the rows of expired and aborted snapshots, safely.
 *
 * <p>An expired snapshot may still be read by a transaction that started before the expiry was
 * committed. So each expired snapshot first gets a <em>cleanup fence</em>: the id of a
 * transaction that saw it expired, and hence started after the expiry committed. Its rows are
 * deleted once every transaction in progress is newer than the fence (Tephra's in-progress
 * list), and no reader pin holds it. Aborted snapshots were never visible and go at once.
 *
 * <p>Dead writers are found here too: a snapshot still BUILDING whose building transaction is no
 * longer in progress (it timed out or its client died) is aborted. Once an aborted writer's rows
 * are gone, its transaction leaves Tephra's invalid list, so that list does not grow forever.
 */
final class Cleanup {
  private static final Logger LOG = LoggerFactory.getLogger(Cleanup.class);
  private static final int DELETE_BATCH = 1000;

  private final DatasetId dataset;
  private final MetadataStore store;
  private final DataTable data;
  private final LockTable locks;
  private final TransactionSystemClient txClient;
  private final Clock clock;

  Cleanup(DatasetId dataset, MetadataStore store, DataTable data, LockTable locks,
      TransactionSystemClient txClient, Clock clock) {
    this.dataset = dataset;
    this.store = store;
    this.data = data;
    this.locks = locks;
    this.txClient = txClient;
    this.clock = clock;
  }

  /** Gives every expired or aborted snapshot without one a cleanup fence. */
  void markFences() {
    store.update("mark cleanup fences", (base, tx) -> new MetadataStore.Change<>(fenced(base, tx), null));
  }

  private static DatasetState fenced(DatasetState base, Transaction tx) {
    DatasetState updated = base;
    for (SnapshotInfo s : base.snapshots().values()) {
      if (needsCleanup(s) && s.cleanupFence() == 0) {
        updated = updated.withSnapshot(s.toBuilder().cleanupFence(tx.getWritePointer()).build());
      }
    }
    return updated;
  }

  CleanupResult run() {
    List<SnapshotId> dead = store.update("abort dead writers", (base, tx) -> {
      List<SnapshotId> found = new ArrayList<>();
      DatasetState updated = base;
      for (SnapshotInfo s : base.snapshots().values()) {
        if (s.state() == SnapshotState.BUILDING && !tx.isInProgress(s.id().value())) {
          found.add(s.id());
          updated = updated.withSnapshot(s.toBuilder().state(SnapshotState.ABORTED).build());
        }
      }
      return new MetadataStore.Change<>(fenced(updated, tx), found);
    });
    dead.forEach(id -> LOG.warn("dataset {}: snapshot {} was left BUILDING by a writer that is gone; aborted",
        dataset, id));

    // a fresh transaction: what is in progress now, and what the metadata says now
    Probe probe = store.update("cleanup probe", (base, tx) -> new MetadataStore.Change<>(base, new Probe(base, tx)));
    List<SnapshotId> cleaned = new ArrayList<>();
    List<SnapshotId> deferred = new ArrayList<>();
    long rows = 0;
    for (SnapshotInfo s : probe.state().snapshots().values()) {
      if (!needsCleanup(s) || s.cleanupFence() == 0) {
        continue;
      }
      boolean readersGone = s.state() == SnapshotState.ABORTED || probe.oldestInProgress() > s.cleanupFence();
      if (readersGone && locks.livePins(s.id()) == 0) {
        rows += data.deleteSnapshot(s.id(), DELETE_BATCH);
        cleaned.add(s.id());
      } else {
        deferred.add(s.id());
      }
    }
    if (!cleaned.isEmpty()) {
      store.update("record cleanup", (base, tx) -> {
        DatasetState updated = base;
        for (SnapshotId id : cleaned) {
          SnapshotInfo s = base.snapshot(id).orElseThrow();
          updated = updated.withSnapshot(s.toBuilder().cleanedAt(clock.instant()).build());
        }
        return new MetadataStore.Change<>(updated, null);
      });
    }
    List<Long> truncated = truncateInvalid(probe, cleaned);
    return new CleanupResult(cleaned, rows, deferred, dead, truncated);
  }

  private List<Long> truncateInvalid(Probe probe, List<SnapshotId> cleaned) {
    Set<Long> invalid = new HashSet<>();
    for (long t : probe.invalids()) {
      invalid.add(t);
    }
    List<Long> truncate = new ArrayList<>();
    for (SnapshotId id : cleaned) {
      if (probe.state().snapshot(id).map(s -> s.state() == SnapshotState.ABORTED).orElse(false)
          && invalid.contains(id.value())) {
        truncate.add(id.value());
      }
    }
    if (!truncate.isEmpty()) {
      txClient.truncateInvalidTx(new HashSet<>(truncate));
    }
    return truncate;
  }

  private static boolean needsCleanup(SnapshotInfo s) {
    return (s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED) && s.cleanedAt().isEmpty();
  }

  private record Probe(DatasetState state, long oldestInProgress, long[] invalids) {
    Probe(DatasetState state, Transaction tx) {
      this(state, tx.getInProgress().length == 0 ? Long.MAX_VALUE : tx.getInProgress()[0], tx.getInvalids());
    }
  }
}
