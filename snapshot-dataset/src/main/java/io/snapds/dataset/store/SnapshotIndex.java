package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.MARK;
import static io.snapds.dataset.store.MetadataLayout.PRESENT;
import static io.snapds.dataset.store.MetadataLayout.key;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One of the snapshot indexes: rows kind + id(8), column {@code x}, one per snapshot in a set
 * (committed {@code c}, building {@code b}, awaiting cleanup {@code g}, cleaned {@code d}). Which
 * snapshots are in it follows their records ({@link #follow}); its ids are read in one scan, on
 * first use.
 */
final class SnapshotIndex {
  private final ViewRows rows;
  private final byte kind;
  private final Predicate<SnapshotInfo> member;
  private TreeSet<SnapshotId> ids;
  private final Set<SnapshotId> added = new HashSet<>();
  private final Set<SnapshotId> removed = new HashSet<>();

  SnapshotIndex(ViewRows rows, byte kind, Predicate<SnapshotInfo> member) {
    this.rows = rows;
    this.kind = kind;
    this.member = member;
  }

  /** The ids in the index, with this transaction's changes. */
  TreeSet<SnapshotId> ids() {
    if (ids == null) {
      ids = new TreeSet<>();
      for (MetaRows.Row r : rows.scan(kindStart(kind), kindStop(kind), false, Integer.MAX_VALUE)) {
        ids.add(SnapshotId.of(Bytes.toLong(r.key(), 1)));
      }
      ids.removeAll(removed);
      ids.addAll(added);
    }
    return ids;
  }

  /** Deletes the index row of {@code id} for good (the record went past the horizon). */
  void drop(SnapshotId id) {
    byte[] row = key(kind, id);
    rows.deleteRow(row, rows.get(row));
    removed.add(id);
    added.remove(id);
    if (ids != null) {
      ids.remove(id);
    }
  }

  /**
   * Adds or removes the index row of the snapshot whose record changes from {@code before} (null:
   * none) to {@code after}; returns +1 when it joined, -1 when it left, 0 otherwise.
   */
  int follow(SnapshotInfo before, SnapshotInfo after) {
    boolean was = before != null && member.test(before);
    boolean is = member.test(after);
    if (was == is) {
      return 0;
    }
    rows.write(key(kind, after.id()), MARK, is ? PRESENT : null);
    (is ? added : removed).add(after.id());
    (is ? removed : added).remove(after.id());
    if (ids != null) {
      if (is) {
        ids.add(after.id());
      } else {
        ids.remove(after.id());
      }
    }
    return is ? 1 : -1;
  }
}
