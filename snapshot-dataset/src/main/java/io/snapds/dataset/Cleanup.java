package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
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
  private final MetadataPruner pruner;

  Cleanup(DatasetId dataset, MetadataStore store, DataTable data, LockTable locks,
      TransactionSystemClient txClient, Clock clock, MetadataPruner pruner) {
    this.dataset = dataset;
    this.store = store;
    this.data = data;
    this.locks = locks;
    this.txClient = txClient;
    this.clock = clock;
    this.pruner = pruner;
  }

  /** Gives every expired or aborted snapshot without one a cleanup fence. */
  void markFences() {
    store.update("mark cleanup fences", view -> {
      fence(view);
      return null;
    });
  }

  /** The fencing rule: each snapshot awaiting cleanup without a fence gets this transaction's id. */
  static void fence(MetadataView view) {
    for (SnapshotInfo s : view.awaitingCleanup()) {
      if (s.cleanupFence() == 0) {
        view.putSnapshot(s.toBuilder().cleanupFence(view.transaction().getWritePointer()).build());
      }
    }
  }

  /** Snapshots still BUILDING whose building transaction is gone are aborted; returns their ids. */
  static List<SnapshotId> abortDeadWriters(MetadataView view) {
    List<SnapshotId> found = new ArrayList<>();
    for (SnapshotInfo s : view.building()) {
      if (!view.transaction().isInProgress(s.id().value())) {
        found.add(s.id());
        view.putSnapshot(s.toBuilder().state(SnapshotState.ABORTED).build());
      }
    }
    fence(view);
    return found;
  }

  /**
   * The cleanup-eligibility rule: a fenced snapshot awaiting cleanup whose readers are gone
   * (aborted ones never had any; expired ones once every transaction in progress is newer than
   * the fence) and that no reader pin holds.
   */
  static boolean eligible(SnapshotInfo s, long oldestInProgress, int livePins) {
    if (!needsCleanup(s) || s.cleanupFence() == 0) {
      return false;
    }
    boolean readersGone = s.state() == SnapshotState.ABORTED || oldestInProgress > s.cleanupFence();
    return readersGone && livePins == 0;
  }

  CleanupResult run() {
    List<SnapshotId> dead = store.update("abort dead writers", Cleanup::abortDeadWriters);
    dead.forEach(id -> LOG.warn("dataset {}: snapshot {} was left BUILDING by a writer that is gone; aborted",
        dataset, id));

    // a fresh transaction: what is in progress now, and what the metadata says now
    Probe probe = store.read(view -> new Probe(view.awaitingCleanup(), view.transaction()));
    List<SnapshotId> cleaned = new ArrayList<>();
    List<SnapshotId> deferred = new ArrayList<>();
    long rows = 0;
    for (SnapshotInfo s : probe.awaiting()) {
      if (!needsCleanup(s) || s.cleanupFence() == 0) {
        continue;
      }
      if (eligible(s, probe.oldestInProgress(), locks.livePins(s.id()))) {
        rows += data.deleteSnapshot(s.id(), DELETE_BATCH);
        cleaned.add(s.id());
      } else {
        deferred.add(s.id());
      }
    }
    if (!cleaned.isEmpty()) {
      store.update("record cleanup", view -> {
        for (SnapshotId id : cleaned) {
          view.snapshot(id).ifPresent(s -> view.putSnapshot(s.toBuilder().cleanedAt(view.commitTime()).build()));
        }
        return null;
      });
    }
    List<Long> truncated = truncateInvalid(probe, cleaned);
    pruner.run(probe.invalids());
    return new CleanupResult(cleaned, rows, deferred, dead, truncated);
  }

  private List<Long> truncateInvalid(Probe probe, List<SnapshotId> cleaned) {
    Set<Long> invalid = new HashSet<>();
    for (long t : probe.invalids()) {
      invalid.add(t);
    }
    List<Long> truncate = new ArrayList<>();
    for (SnapshotId id : cleaned) {
      if (probe.aborted(id)
          && invalid.contains(id.value())) {
        truncate.add(id.value());
      }
    }
    if (!truncate.isEmpty()) {
      txClient.truncateInvalidTx(new HashSet<>(truncate));
    }
    return truncate;
  }

  static boolean needsCleanup(SnapshotInfo s) {
    return (s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED) && s.cleanedAt().isEmpty();
  }

  private record Probe(List<SnapshotInfo> awaiting, long oldestInProgress, long[] invalids) {
    Probe(List<SnapshotInfo> awaiting, Transaction tx) {
      this(awaiting, tx.getInProgress().length == 0 ? Long.MAX_VALUE : tx.getInProgress()[0], tx.getInvalids());
    }

    boolean aborted(SnapshotId id) {
      return awaiting.stream().anyMatch(s -> s.id().equals(id) && s.state() == SnapshotState.ABORTED);
    }
  }
}
