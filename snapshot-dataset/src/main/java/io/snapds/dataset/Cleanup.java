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
    endFinishedBuilds();

    // a fresh transaction: what is in progress now, and what the metadata says now
    Probe probe = store.update("cleanup probe", (base, tx) -> new MetadataStore.Change<>(base, new Probe(base, tx)));
    List<SnapshotId> cleaned = new ArrayList<>();
    List<SnapshotId> deferred = new ArrayList<>();
    long rows = 0;
    for (SnapshotInfo s : probe.state().snapshots().values()) {
      if (!needsCleanup(s) || s.cleanupFence() == 0) {
        continue;
      }
      boolean readersGone = s.state() == SnapshotState.ABORTED || probe.oldestReader() > s.cleanupFence();
      if (readersGone && locks.livePins(s.id()) == 0) {
        if (s.state() != SnapshotState.ABORTED) {
          // before the first delete: a reader that outlived its protection checks this mark
          // after reading, and fails instead of returning what is left (CleanedCheck)
          locks.markCleaning(s.id());
        }
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
    // published snapshots' building transactions wrote nothing transactional: the invalid list
    // has no reason to keep them (a writer that died after publishing leaves its one there)
    for (SnapshotInfo s : probe.state().snapshots().values()) {
      if (s.state().isReadable() || s.state() == SnapshotState.EXPIRED) {
        if (invalid.contains(s.id().value())) {
          truncate.add(s.id().value());
        }
      }
    }
    if (!truncate.isEmpty()) {
      txClient.truncateInvalidTx(new HashSet<>(truncate));
    }
    return truncate;
  }

  /**
   * Ends the building transactions of published snapshots that are still in progress: their
   * writer died (or stalled) after the publish committed. Left alone, each would count as a
   * reader of every dataset until it timed out, and then sit in the invalid list.
   */
  private void endFinishedBuilds() {
    Probe probe = store.update("find finished builds", (base, tx) -> new MetadataStore.Change<>(base, new Probe(base, tx)));
    for (SnapshotInfo s : probe.state().snapshots().values()) {
      if (s.state() != SnapshotState.BUILDING && s.state() != SnapshotState.ABORTED
          && probe.inProgress().contains(s.id().value())) {
        LOG.info("dataset {}: snapshot {} is {} but its building transaction is still open; ending it",
            dataset, s.id(), s.state());
        txClient.invalidate(s.id().value());
      }
    }
  }

  private static boolean needsCleanup(SnapshotInfo s) {
    return (s.state() == SnapshotState.EXPIRED || s.state() == SnapshotState.ABORTED) && s.cleanedAt().isEmpty();
  }

  /**
   * What a fresh transaction sees: the metadata, and the oldest transaction in progress that may
   * read this dataset. Not readers: this dataset's own building transactions (every snapshot id
   * is one; they only write), and long transactions older than the oldest short one (other
   * applications' long jobs; a long transaction that reads this dataset holds a reader pin, see
   * {@code SnapshotDataset.startTx}).
   */
  private record Probe(DatasetState state, long oldestReader, Set<Long> inProgress, long[] invalids) {
    Probe(DatasetState state, Transaction tx) {
      this(state, oldestReader(state, tx), inProgressSet(tx), tx.getInvalids());
    }

    private static long oldestReader(DatasetState state, Transaction tx) {
      long firstShort = tx.getFirstShortInProgress();
      for (long id : tx.getInProgress()) { // ascending
        if (id >= firstShort && !state.snapshots().containsKey(SnapshotId.of(id))) {
          return id;
        }
      }
      return Long.MAX_VALUE;
    }

    private static Set<Long> inProgressSet(Transaction tx) {
      Set<Long> ids = new HashSet<>();
      for (long id : tx.getInProgress()) {
        ids.add(id);
      }
      return ids;
    }
  }
}
