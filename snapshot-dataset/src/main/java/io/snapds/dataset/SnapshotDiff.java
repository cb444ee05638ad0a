package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.read.ChangeMerge;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.SchemaException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * A diff of two snapshots: a merge of two sorted scans, one of each snapshot's key range, each
 * through the snapshot reader every read uses ({@link FixedSnapshotReader}: the data table's
 * scan, and the cleaning check when its rows run out or on close). Holds one row of each side at a
 * time (and the scanners' caches), never a side's rows: its memory does not grow with the rows
 * read or the rows that differ. Both snapshots are pinned ({@link ReaderPin}, renewed by a
 * {@link PinKeeper}) from before the first row to the end or {@link #close()}.
 *
 * <p>Rows are compared on their cells as stored (family, qualifier, value; not timestamps), on the
 * columns of the diff's {@link RowScan} only: the scans fetch nothing else. Not thread-safe.
 */
final class SnapshotDiff implements DiffScanner {
  /**
   * The pins' time-to-live: renewed every third of it while the diff is open, so a process that
   * dies leaves them at most this long.
   */
  static final Duration PIN_TTL = Duration.ofMinutes(10);
  /** Why a pinned diff can still lose a snapshot, and what to do. */
  static final String PIN_LAPSED = "the diff's reader pin on it lapsed (this process did not renew it within its"
      + " time-to-live, and cleanup collected it); run the diff again while both snapshots are retained";

  private final SnapshotId from;
  private final SnapshotId to;
  private final List<AutoCloseable> held; // the pins' keepers
  private final RowScanner fromRows;
  private final RowScanner toRows;
  private final ChangeMerge merge;
  private final long limit;
  private boolean iterated;
  private boolean closed;
  private long rowsRead;
  private long progressEvery = Long.MAX_VALUE;
  private Consumer<DiffSummary> progress = s -> { };

  private SnapshotDiff(SnapshotId from, SnapshotId to, List<AutoCloseable> held, RowScanner fromRows,
      SnapshotKeys fromKeys, RowScanner toRows, SnapshotKeys toKeys, long limit) {
    this.from = from;
    this.to = to;
    this.held = held;
    this.fromRows = fromRows;
    this.toRows = toRows;
    Iterator<SnapshotRow> before = fromRows.iterator();
    Iterator<SnapshotRow> after = toRows.iterator();
    this.merge = new ChangeMerge(() -> counted(before), fromKeys.prefixLength(), () -> counted(after),
        toKeys.prefixLength());
    this.limit = limit;
  }

  /**
   * Resolves and pins both snapshots (the second pin after the first; a failure releases what was
   * pinned), checks that neither is being cleaned already and that their schemas compare, and
   * opens one scan of each.
   *
   * @throws SnapshotNotAvailableException if a selector names no readable snapshot
   * @throws SnapshotCleanedException if cleanup has begun deleting either snapshot
   * @throws SchemaException if the two schemas give one field different names or types
   */
  static SnapshotDiff open(OperationsContext ops, DatasetReads reads, SnapshotSelector from, SnapshotSelector to,
      RowScan scan) {
    checkNotNull(from, "'from' snapshot selector must not be null");
    checkNotNull(to, "'to' snapshot selector must not be null");
    checkNotNull(scan, "scan must not be null");
    List<AutoCloseable> held = new ArrayList<>(2);
    List<RowScanner> scanners = new ArrayList<>(2);
    try {
      ReaderPin fromPin = keep(held, reads.pin(from, "diff:from", PIN_TTL));
      ReaderPin toPin = keep(held, reads.pin(to, "diff:to", PIN_TTL));
      SnapshotKeys fromKeys = ops.keys(fromPin.snapshotId());
      SnapshotKeys toKeys = ops.keys(toPin.snapshotId());
      FixedSnapshotReader fromReader = reader(ops, fromKeys);
      FixedSnapshotReader toReader = reader(ops, toKeys);
      // a pin taken after cleanup began deleting protects nothing: refuse now rather than at the end
      new CleanedCheck(ops.locks(), ops.connection(), ops.id(), fromKeys.id(), PIN_LAPSED).verify();
      new CleanedCheck(ops.locks(), ops.connection(), ops.id(), toKeys.id(), PIN_LAPSED).verify();
      DiffRead.requireComparable(ops.id(), fromKeys.id(), toKeys.id(), reads.read(view -> List.of(
          DatasetSchemas.ofSnapshot(view, ops.id(), fromKeys.id()),
          DatasetSchemas.ofSnapshot(view, ops.id(), toKeys.id()))), scan);
      RowScan sides = scan.limit(0); // the limit counts changes, not the rows of either side
      scanners.add(fromReader.scan(sides));
      scanners.add(toReader.scan(sides));
      return new SnapshotDiff(fromKeys.id(), toKeys.id(), held, scanners.get(0), fromKeys, scanners.get(1), toKeys,
          scan.limit());
    } catch (RuntimeException e) {
      for (RowScanner s : scanners) {
        closeQuietly(s::close, e);
      }
      for (AutoCloseable h : held) {
        closeQuietly(h, e);
      }
      throw e;
    }
  }

  private static ReaderPin keep(List<AutoCloseable> held, ReaderPin pin) {
    held.add(new PinKeeper(pin, PIN_TTL));
    return pin;
  }

  private static FixedSnapshotReader reader(OperationsContext ops, SnapshotKeys keys) {
    return new FixedSnapshotReader(ops.data(), keys, new CleanedCheck(ops.locks(), ops.connection(), ops.id(),
        keys.id(), PIN_LAPSED));
  }

  @Override
  public SnapshotId from() {
    return from;
  }

  @Override
  public SnapshotId to() {
    return to;
  }

  @Override
  public DiffScanner onProgress(long everyRows, Consumer<DiffSummary> listener) {
    com.google.common.base.Preconditions.checkArgument(everyRows > 0, "everyRows must be positive, not %s",
        everyRows);
    checkState(!iterated, "onProgress() is set before the diff is iterated");
    this.progress = checkNotNull(listener, "listener");
    this.progressEvery = everyRows;
    return this;
  }

  /** A side's next row (null at its end), counted for {@link #onProgress}. */
  private SnapshotRow counted(Iterator<SnapshotRow> side) {
    if (!side.hasNext()) {
      return null;
    }
    SnapshotRow row = side.next();
    if (++rowsRead % progressEvery == 0) {
      progress.accept(counts());
    }
    return row;
  }

  private DiffSummary counts() {
    return new DiffSummary(from, to, merge.added(), merge.removed(), merge.changed(), merge.unchanged());
  }

  @Override
  public Iterator<RowChange> iterator() {
    checkState(!iterated, "a diff is iterated once");
    iterated = true;
    return new Iterator<>() {
      private RowChange next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          next = advance(true);
        }
        return next != null;
      }

      @Override
      public RowChange next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        RowChange c = next;
        next = null;
        return c;
      }
    };
  }

  @Override
  public DiffSummary summary() {
    checkState(!iterated, "summary() counts a diff not iterated yet");
    iterated = true;
    while (advance(false) != null) {
      // counted in advance
    }
    return counts();
  }

  /**
   * The next change in key order (a placeholder when {@code build} is false), or null at the end
   * (or the limit), when both scanners are closed and the pins released ({@link ChangeMerge}).
   */
  private RowChange advance(boolean build) {
    if (closed) {
      return null;
    }
    if (limit > 0 && merge.changes() >= limit) {
      close();
      progress.accept(counts());
      return null;
    }
    RowChange c;
    try {
      c = merge.next(build);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // the sides are iterators: they throw no checked exception
    }
    if (c == null) {
      close();
      progress.accept(counts());
    }
    return c;
  }

  /**
   * Closes both scanners (each runs its cleaning check if its rows had not run out) and releases
   * both pins, whatever fails; the first failure is thrown.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    for (AutoCloseable c : List.<AutoCloseable>of(fromRows::close, toRows::close, held.get(0), held.get(1))) {
      try {
        c.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      } catch (Exception e) {
        throw new IllegalStateException(e); // none of them throws a checked exception
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeQuietly(AutoCloseable c, RuntimeException cause) {
    try {
      c.close();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public String toString() {
    return "SnapshotDiff{" + from + ".." + to + "}";
  }
}
