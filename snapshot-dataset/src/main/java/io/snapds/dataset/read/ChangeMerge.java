package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.RowChange;
import io.snapds.dataset.SnapshotRow;
import java.io.IOException;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The merge of a diff: two sources of rows in key order, one per snapshot, and at each step the
 * smaller key of their current rows; equal keys compare cell by cell (family, qualifier, value;
 * not timestamps). Holds one row of each side at a time, so its memory does not grow with the
 * rows read or the rows that differ. Every diff runs it: the Java API's ({@code
 * SnapshotDataset.diff}) over two scanners of whole ranges, and the engines' over the two
 * {@link SplitReader}s of one {@link DiffSplit}. Not thread-safe.
 */
@InterfaceAudience.Private
public final class ChangeMerge {
  /** One side of the merge: its next row in key order, or null at its end. */
  @FunctionalInterface
  public interface Side {
    SnapshotRow next() throws IOException;
  }

  /** Returned by {@link #next(boolean)} when asked to count only. */
  private static final RowChange COUNTED = RowChange.added(new SnapshotRow(new byte[] {0},
      new TreeMap<>(Bytes.BYTES_COMPARATOR)));

  private final Side before;
  private final Side after;
  private final int beforePrefix;
  private final int afterPrefix;
  private SnapshotRow a;
  private SnapshotRow b;
  private boolean beforeDone;
  private boolean afterDone;
  private long added;
  private long removed;
  private long changed;
  private long unchanged;

  /**
   * @param before the older snapshot's rows, as stored (with its key prefix of {@code beforePrefix} bytes)
   * @param after the newer snapshot's rows, with its key prefix of {@code afterPrefix} bytes
   */
  public ChangeMerge(Side before, int beforePrefix, Side after, int afterPrefix) {
    this.before = checkNotNull(before, "before");
    this.after = checkNotNull(after, "after");
    this.beforePrefix = beforePrefix;
    this.afterPrefix = afterPrefix;
  }

  /**
   * The next change in key order, or null when both sides ran out. With {@code build} false it
   * counts without making the change (and returns a placeholder).
   */
  public RowChange next(boolean build) throws IOException {
    while (true) {
      if (a == null && !beforeDone) {
        a = before.next();
        beforeDone = a == null;
      }
      if (b == null && !afterDone) {
        b = after.next();
        afterDone = b == null;
      }
      if (a == null && b == null) {
        return null;
      }
      int cmp = a == null ? 1 : b == null ? -1 : compareKeys(a, beforePrefix, b, afterPrefix);
      if (cmp < 0) {
        removed++;
        RowChange c = build ? RowChange.removed(a) : COUNTED;
        a = null;
        return c;
      }
      if (cmp > 0) {
        added++;
        RowChange c = build ? RowChange.added(b) : COUNTED;
        b = null;
        return c;
      }
      SnapshotRow oldRow = a;
      SnapshotRow newRow = b;
      a = null;
      b = null;
      if (!sameCells(oldRow, newRow)) {
        changed++;
        return build ? RowChange.changed(oldRow, newRow) : COUNTED;
      }
      unchanged++;
    }
  }

  public long added() {
    return added;
  }

  public long removed() {
    return removed;
  }

  public long changed() {
    return changed;
  }

  /** Rows in both snapshots with the same cells: merged, never returned. */
  public long unchanged() {
    return unchanged;
  }

  /** The changes returned so far: added, removed and changed. */
  public long changes() {
    return added + removed + changed;
  }

  /** Compares the user keys of two stored rows without copying them (the prefixes may differ in length). */
  static int compareKeys(SnapshotRow x, int xPrefix, SnapshotRow y, int yPrefix) {
    Cell cx = x.cells().get(0);
    Cell cy = y.cells().get(0);
    return Bytes.compareTo(cx.getRowArray(), cx.getRowOffset() + xPrefix, cx.getRowLength() - xPrefix,
        cy.getRowArray(), cy.getRowOffset() + yPrefix, cy.getRowLength() - yPrefix);
  }

  /** Same columns with the same values, in HBase's order (timestamps are not compared). */
  static boolean sameCells(SnapshotRow x, SnapshotRow y) {
    List<Cell> cx = x.cells();
    List<Cell> cy = y.cells();
    if (cx.size() != cy.size()) {
      return false;
    }
    for (int i = 0; i < cx.size(); i++) {
      Cell p = cx.get(i);
      Cell q = cy.get(i);
      if (!CellUtil.matchingFamily(p, q) || !CellUtil.matchingQualifier(p, q) || !CellUtil.matchingValue(p, q)) {
        return false;
      }
    }
    return true;
  }
}
