package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The read plan of a diff between two snapshots for an engine whose tasks read in parallel: both
 * snapshots resolved and pinned once ({@link SnapshotRead} each: every task and retry compares the
 * same two), and the diff's key range cut into {@link DiffSplit}s where a region of either
 * snapshot begins. The tasks merge each split's two sides with a {@link DiffSplitReader}; the
 * changes of all splits, in split order, are exactly {@code SnapshotDataset.diff(from, to, scan)}'s.
 * <pre>{@code
 * try (DiffRead read = DiffRead.pin(connection, dataset, SnapshotSelector.snapshot(a), SnapshotSelector.current(),
 *     "nightly-diff", ttl)) {
 *   List<DiffSplit> splits = read.planSplits(RowScan.all());
 *   ... hand the splits to the tasks; renew() at least once per ttl while they run ...
 * }
 * }</pre>
 * Cost: two pins and two plans (one region lookup each) per job, whatever the history.
 */
public final class DiffRead implements AutoCloseable {
  private final SnapshotRead before;
  private final SnapshotRead after;

  private DiffRead(SnapshotRead before, SnapshotRead after) {
    this.before = before;
    this.after = after;
  }

  /**
   * Resolves and pins both snapshots for {@code owner} (the second after the first; a failure
   * releases what was pinned).
   *
   * @throws SnapshotNotAvailableException if a selector names no readable snapshot
   * @throws IllegalArgumentException if {@code ttl} is not positive
   */
  public static DiffRead pin(Connection connection, SnapshotDataset dataset, SnapshotSelector from,
      SnapshotSelector to, String owner, Duration ttl) {
    checkNotNull(from, "'from' snapshot selector must not be null");
    checkNotNull(to, "'to' snapshot selector must not be null");
    SnapshotRead before = SnapshotRead.pin(connection, dataset, from, owner, ttl);
    try {
      return new DiffRead(before, SnapshotRead.pin(connection, dataset, to, owner, ttl));
    } catch (RuntimeException e) {
      before.close();
      throw e;
    }
  }

  /**
   * The plan of a diff between two reads already resolved and pinned, such as a query's reads held
   * in the {@link PinRegistry} or {@link SnapshotRead#pinnedElsewhere} in a later stage of the same
   * query: it plans the splits {@link #pin} would. Closing it closes both reads (which releases the
   * pins they hold, if any); an engine whose registry holds the pins does not close it.
   *
   * @throws IllegalArgumentException if the two reads are of different datasets
   */
  public static DiffRead of(SnapshotRead before, SnapshotRead after) {
    checkNotNull(before, "'from' read must not be null");
    checkNotNull(after, "'to' read must not be null");
    checkArgument(before.dataset().equals(after.dataset()), "a diff's sides are of one dataset, got %s and %s",
        before.dataset(), after.dataset());
    return new DiffRead(before, after);
  }

  public DatasetId dataset() {
    return before.dataset();
  }

  /** The older ("from") snapshot's read. */
  public SnapshotRead before() {
    return before;
  }

  /** The newer ("to") snapshot's read. */
  public SnapshotRead after() {
    return after;
  }

  /**
   * The diff's splits over {@code scan}'s key range (the whole snapshots when it has none): one per
   * piece between consecutive region starts of either snapshot. Checks first that the two schemas
   * compare on the scan's columns.
   *
   * @throws SchemaException naming the first projected field stored differently in the two snapshots
   */
  public List<DiffSplit> planSplits(RowScan scan) throws IOException {
    checkNotNull(scan, "row scan must not be null");
    requireComparable(dataset(), before.snapshotId(), after.snapshotId(), List.of(before.schema(), after.schema()),
        scan);
    return align(before.planSplits(scan), after.planSplits(scan));
  }

  /**
   * Cuts two plans of one key range into pieces of the same user keys: every split start of either
   * side (after its first) is a cut in both.
   */
  static List<DiffSplit> align(List<ReadSplit> older, List<ReadSplit> newer) {
    if (older.isEmpty() || newer.isEmpty()) {
      checkState(older.isEmpty() && newer.isEmpty(), "one side of a diff has splits, the other none");
      return List.of();
    }
    TreeSet<byte[]> cuts = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    for (List<ReadSplit> side : List.of(older, newer)) {
      for (ReadSplit s : side.subList(1, side.size())) {
        cuts.add(userKey(s, s.startRow()));
      }
    }
    List<byte[]> points = new ArrayList<>(cuts);
    List<DiffSplit> out = new ArrayList<>(points.size() + 1);
    for (int i = 0; i <= points.size(); i++) {
      byte[] from = i == 0 ? null : points.get(i - 1);
      byte[] until = i == points.size() ? null : points.get(i);
      out.add(new DiffSplit(piece(older, from, until), piece(newer, from, until)));
    }
    return out;
  }

  /** The part of one side between two user keys (null: the side's own start or stop). */
  private static ReadSplit piece(List<ReadSplit> side, byte[] from, byte[] until) {
    ReadSplit first = side.get(0);
    ReadSplit last = side.get(side.size() - 1);
    byte[] start = from == null ? first.startRow() : Bytes.add(first.keys().prefix(), from);
    byte[] stop = until == null ? last.stopRow() : Bytes.add(first.keys().prefix(), until);
    ReadSplit holder = first;
    for (ReadSplit s : side) {
      if (Bytes.compareTo(s.startRow(), start) <= 0) {
        holder = s; // the split (region) the piece begins in: its host serves the piece
      }
    }
    String[] hosts = holder.locations();
    return new ReadSplit(first.dataset(), first.keys(), start, stop, hosts.length == 0 ? null : hosts[0]);
  }

  private static byte[] userKey(ReadSplit s, byte[] row) {
    byte[] prefix = s.keys().prefix();
    checkState(Bytes.startsWith(row, prefix), "split row %s is outside snapshot %s", Bytes.toStringBinary(row),
        s.snapshotId());
    return Arrays.copyOfRange(row, prefix.length, row.length);
  }

  /**
   * Cells compare across two schemas when no field has, in the other, the same id under another
   * name or with another type (a rename or a widening, which store the same value as other bytes):
   * fields added or dropped between them are fine (a value that appears or goes is a change).
   * Only the fields the scan projects count. Schema-less snapshots compare as bytes.
   *
   * @throws SchemaException naming the first field that does not compare
   */
  public static void requireComparable(DatasetId dataset, SnapshotId from, SnapshotId to,
      List<Optional<Schema>> schemas, RowScan scan) {
    Optional<Schema> a = schemas.get(0);
    Optional<Schema> b = schemas.get(1);
    if (a.isEmpty() || b.isEmpty() || a.get().equals(b.get())) {
      return;
    }
    for (Field f : a.get().fields()) {
      Optional<Field> g = b.get().findField(f.id());
      if (f.isKey() || g.isEmpty() || g.get().name().equals(f.name()) && g.get().type().equals(f.type())) {
        continue; // a key field's encoding is its type's, and key types never change
      }
      if (projected(scan, f.name()) || projected(scan, g.get().name())) {
        throw new SchemaException(f.name(), "cannot diff snapshot " + from + " and " + to + " of " + dataset
            + ": field '" + f.name() + "' (" + f.type() + ") of " + from + " is '" + g.get().name() + "' ("
            + g.get().type() + ") in " + to + ", so the same values are stored as other cells and every row would"
            + " compare changed; leave the field out of the diff's columns, or decode both snapshots and compare"
            + " the records");
      }
    }
  }

  private static boolean projected(RowScan scan, String field) {
    if (scan.columns().isEmpty()) {
      return true;
    }
    byte[] q = Bytes.toBytes(field);
    return scan.columns().stream().anyMatch(c -> c.qualifier() == null || Bytes.equals(c.qualifier(), q));
  }

  /** Extends both pins to their time-to-live from now. */
  public void renew() {
    before.renew();
    after.renew();
  }

  /** Releases both pins; idempotent. */
  @Override
  public void close() {
    try {
      after.close();
    } finally {
      before.close();
    }
  }

  @Override
  public String toString() {
    return "DiffRead{" + dataset() + " @ " + before.snapshotId() + " -> " + after.snapshotId() + "}";
  }
}
