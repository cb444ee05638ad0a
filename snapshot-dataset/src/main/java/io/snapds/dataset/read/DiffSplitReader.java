package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotCleanedException;
import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;

/**
 * Reads one {@link DiffSplit}: a {@link SplitReader} of each side, merged by the {@link
 * ChangeMerge} every diff runs. Each side's reader checks, when its rows run out, that its snapshot
 * was not cleaned meanwhile, so a split whose pins lapsed fails instead of returning changes made
 * of a short side. Not thread-safe.
 */
public final class DiffSplitReader implements Closeable {
  private final SplitReader before;
  private final SplitReader after;
  private final ChangeMerge merge;
  private RowChange change;
  private boolean done;

  private DiffSplitReader(SplitReader before, SplitReader after) {
    this.before = before;
    this.after = after;
    this.merge = new ChangeMerge(() -> before.next() ? before.row() : null, before.split().keys().prefixLength(),
        () -> after.next() ? after.row() : null, after.split().keys().prefixLength());
  }

  /**
   * @param projection the columns and caching to read with (changes are judged on these columns);
   *     its key range is the split's
   * @param whenPinLapsed what the {@link SnapshotCleanedException} tells the user to do, should a
   *     pin lapse and cleanup begin while the split is read
   */
  public static DiffSplitReader open(Connection connection, DiffSplit split, RowScan projection,
      String whenPinLapsed) throws IOException {
    checkNotNull(split, "split must not be null");
    SplitReader before = SplitReader.open(connection, split.before(), projection, false, whenPinLapsed);
    try {
      return new DiffSplitReader(before, SplitReader.open(connection, split.after(), projection, false,
          whenPinLapsed));
    } catch (IOException | RuntimeException e) {
      before.close();
      throw e;
    }
  }

  /**
   * Moves to the next change; false when both sides ran out (and their checks passed).
   *
   * @throws SnapshotCleanedException if cleanup began deleting either snapshot while it was read
   */
  public boolean next() throws IOException {
    change = done ? null : merge.next(true);
    done = change == null;
    return !done;
  }

  /** The current change. */
  public RowChange change() {
    checkState(change != null, "no current change: call next() first");
    return change;
  }

  public DiffSplit split() {
    return new DiffSplit(before.split(), after.split());
  }

  @Override
  public void close() throws IOException {
    try {
      after.close();
    } finally {
      before.close();
    }
  }
}
