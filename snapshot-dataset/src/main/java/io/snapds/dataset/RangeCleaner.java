package io.snapds.dataset;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.common.util.concurrent.Uninterruptibles;
import io.snapds.dataset.store.CleanupProgress;
import io.snapds.dataset.store.CleanupProgress.KeyRange;
import io.snapds.dataset.store.DataTable;
import io.snapds.dataset.store.MetadataStore;
import io.snapds.dataset.store.MetadataView;
import io.snapds.dataset.store.RawMetadata;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes one snapshot's rows region by region, on a bounded pool, resumably: the snapshot's
 * key range is cut at the data table's region boundaries inside it (one hbase:meta lookup per
 * region of the snapshot), less the key ranges an earlier run recorded done (metadata row
 * {@code q} + id, which the caller reads with the rest of what the run needs); each piece is scanned key-only and deleted through its own
 * {@code BufferedMutator} by one of {@code threads} workers; after each piece the calling thread
 * records it done (one metadata transaction; not after the last piece, which the caller's record
 * of the snapshot cleaned follows) and tells the listener. A crash, an interrupt, a
 * failed piece or a listener that throws leaves the finished pieces recorded; the next run
 * deletes only the rest. The caller removes the progress row when it records the snapshot
 * cleaned.
 */
final class RangeCleaner {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCleaner.class);
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);

  private final DatasetId dataset;
  private final MetadataStore store;
  private final DataTable data;
  private final int threads;
  private final int batch;

  RangeCleaner(DatasetId dataset, MetadataStore store, DataTable data, int threads, int batch) {
    this.dataset = dataset;
    this.store = store;
    this.data = data;
    this.threads = threads;
    this.batch = batch;
  }

  /**
   * What one call did: the rows it deleted, and whether the snapshot may have a progress row (an
   * earlier run's, or one this call wrote), which the caller removes when it records the snapshot
   * cleaned. A snapshot of one piece never has one, so its record needs no read of it.
   */
  record Cleaned(long rows, boolean progressRow) {}

  /**
   * Deletes what is left of {@code snapshot}'s rows, after what {@code before} (its progress row as
   * the caller read it) records done.
   *
   * @throws CleanupInterruptedException when the calling thread is interrupted (the pieces done stay recorded)
   * @throws StorageException when a piece's deletes failed (likewise)
   */
  Cleaned clean(SnapshotKeys keys, CleanupProgress before, CleanupListener listener) {
    SnapshotId snapshot = keys.id();
    List<KeyRange> pieces = before.remaining(data.regionBoundaries(keys));
    listener.started(snapshot, pieces.size(), before.done().size());
    boolean progressRow = !before.equals(CleanupProgress.NONE);
    if (pieces.isEmpty()) {
      return new Cleaned(0, progressRow);
    }
    if (Math.min(threads, pieces.size()) == 1) {
      // one at a time: on the caller's thread, no pool (and the pieces and their progress in order)
      java.util.Iterator<KeyRange> it = pieces.iterator();
      return collect(snapshot, before, pieces.size(), progressRow, listener, () -> {
        KeyRange piece = it.next();
        return new Piece(piece, owned(keys) ? data.deleteRange(keys, piece, batch) : 0);
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, pieces.size()),
        new ThreadFactoryBuilder().setDaemon(true).setNameFormat("snapds-cleanup-" + snapshot + "-%d").build());
    try {
      CompletionService<Piece> done = new ExecutorCompletionService<>(pool);
      for (KeyRange piece : pieces) {
        done.submit(() -> new Piece(piece, owned(keys) ? data.deleteRange(keys, piece, batch) : 0));
      }
      return collect(snapshot, before, pieces.size(), progressRow, listener, () -> next(done, snapshot));
    } finally {
      // on failure: the pieces not begun are dropped, the running ones interrupted; none is still
      // deleting when this returns (HBase's client gives up on an interrupt within an RPC)
      pool.shutdownNow();
      if (!Uninterruptibles.awaitTerminationUninterruptibly(pool, STOP_WAIT)) {
        LOG.warn("dataset {}: cleanup threads of snapshot {} still running after {}", dataset, snapshot, STOP_WAIT);
      }
    }
  }

  /** Takes the {@code count} pieces as they finish, recording the progress after each but the last. */
  private Cleaned collect(SnapshotId snapshot, CleanupProgress before, int count, boolean progressRow,
      CleanupListener listener, java.util.function.Supplier<Piece> nextFinished) {
    CleanupProgress progress = before;
    long rows = 0;
    for (int finished = 1; finished <= count; finished++) {
      Piece p = nextFinished.get();
      progress = progress.with(p.range(), p.rows());
      if (finished < count) { // after the last, the caller records the snapshot cleaned
        record(snapshot, progress);
        progressRow = true;
      }
      rows += p.rows();
      listener.progress(snapshot, rows, finished, count);
    }
    return new Cleaned(rows, progressRow);
  }

  /**
   * Whether the metadata still has the snapshot's record with the same key number, read right
   * before a piece is deleted: one raw {@code Get} of the record per piece, no transaction (the
   * record of an id is written only by its own begin, so any version of it will do), and none of
   * the store's reads, whose number per cleanup does not grow with the snapshots it cleans. A
   * cleanup that planned its pieces before a truncate, or before a drop and a create, deletes
   * nothing after it: not even where a re-created dataset, whose counter started again, numbered
   * a new snapshot alike.
   */
  private boolean owned(SnapshotKeys keys) {
    boolean owned = RawMetadata.recordedKeyNumber(data.connection(), dataset, keys.id())
        .map(n -> n == keys.number()).orElse(false);
    if (!owned) {
      LOG.warn("dataset {}: snapshot {} has no record with key number {} any more (the dataset was truncated, or "
          + "dropped and created again, since this cleanup planned it); its piece is left alone", dataset, keys.id(),
          keys.number());
    }
    return owned;
  }

  private static Piece next(CompletionService<Piece> done, SnapshotId snapshot) {
    try {
      Future<Piece> f = done.take();
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CleanupInterruptedException(snapshot);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("cleanup of snapshot " + snapshot + " failed", e.getCause());
    }
  }

  /**
   * Records the progress (the whole value: a record that lost every race is made good by the
   * next piece's, or redone by the next run, deletes being idempotent).
   */
  private void record(SnapshotId snapshot, CleanupProgress progress) {
    try {
      // deferrable: losing costs at most a piece deleted again, waiting out commit.retries would
      // hold up every further piece
      store.updateDeferrable("record cleanup progress of " + snapshot, view -> {
        recordProgress(view, snapshot, progress);
        return null;
      });
    } catch (CommitConflictException e) {
      LOG.info("dataset {}: recording the cleanup progress of {} conflicted on every attempt; the next piece's "
          + "record includes it", dataset, snapshot);
    }
  }

  /**
   * The rule of a progress record: written only while the snapshot's record is there and not yet
   * cleaned. Another cleanup may have finished the snapshot meanwhile (its {@code cleanedAt} commit
   * removed the row it knew of) and the horizon may even have trimmed the record (which removes the
   * row with it); a row written after either would stay for good. One record get more in the
   * commit, read with the progress row's.
   */
  static void recordProgress(MetadataView view, SnapshotId snapshot, CleanupProgress progress) {
    boolean unfinished = view.snapshots(List.of(snapshot)).stream()
        .anyMatch(s -> s.id().equals(snapshot) && s.cleanedAt().isEmpty());
    if (unfinished) {
      view.putCleanupProgress(snapshot, progress);
    }
  }

  private record Piece(KeyRange range, long rows) {}
}
