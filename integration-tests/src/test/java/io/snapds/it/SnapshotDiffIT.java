package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DiffScanner;
import io.snapds.dataset.DiffSummary;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #40: row diffs between two snapshots. Every diff is checked against a diff computed in
 * memory from what a reader of each snapshot gets (a scan of each with the same {@link RowScan}),
 * never against what the test meant to write.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotDiffIT {
  private final MiniCluster cluster = MiniCluster.get();

  private SnapshotDataset create(String name, int retain) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(name),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(retain)).build());
  }

  private static SnapshotSelector id(SnapshotInfo s) {
    return SnapshotSelector.snapshot(s.id());
  }

  /** The diff of what a reader of each snapshot gets with {@code scan}, merged in memory. */
  static List<RowChange> expected(SnapshotReader from, SnapshotReader to, RowScan scan) {
    TreeMap<byte[], SnapshotRow> a = rows(from, scan.limit(0));
    TreeMap<byte[], SnapshotRow> b = rows(to, scan.limit(0));
    TreeMap<byte[], RowChange> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    a.forEach((k, row) -> {
      SnapshotRow other = b.get(k);
      if (other == null) {
        out.put(k, RowChange.removed(row));
      } else if (!other.equals(row)) {
        out.put(k, RowChange.changed(row, other));
      }
    });
    b.forEach((k, row) -> {
      if (!a.containsKey(k)) {
        out.put(k, RowChange.added(row));
      }
    });
    List<RowChange> changes = new ArrayList<>(out.values());
    return scan.limit() > 0 && changes.size() > scan.limit() ? changes.subList(0, (int) scan.limit()) : changes;
  }

  private static TreeMap<byte[], SnapshotRow> rows(SnapshotReader reader, RowScan scan) {
    TreeMap<byte[], SnapshotRow> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    try (RowScanner scanner = reader.scan(scan)) {
      for (SnapshotRow r : scanner) {
        rows.put(r.key(), r);
      }
    }
    return rows;
  }

  static List<RowChange> changes(DiffScanner diff) {
    List<RowChange> out = new ArrayList<>();
    try (diff) {
      for (RowChange c : diff) {
        out.add(c);
      }
    }
    return out;
  }

  private static DiffSummary summaryOf(List<RowChange> changes, SnapshotId from, SnapshotId to) {
    return new DiffSummary(from, to, changes.stream().filter(c -> c.kind() == RowChange.Kind.ADDED).count(),
        changes.stream().filter(c -> c.kind() == RowChange.Kind.REMOVED).count(),
        changes.stream().filter(c -> c.kind() == RowChange.Kind.CHANGED).count(), 0);
  }

  private static byte[] key(int i) {
    return Bytes.toBytes(String.format("k%06d", i));
  }

  /**
   * One random snapshot: keys from a window that moves between snapshots (so pairs overlap, nest or
   * are disjoint), 1 to 4 columns of random values, some rows wide (300 cells), some keys deleted
   * after they were written in the same build, and rows that keep the value they had.
   */
  private static SnapshotInfo randomSnapshot(SnapshotDataset ds, Random r, int n) {
    int base = r.nextInt(4) * 300 + (n % 3 == 0 ? 5000 : 0); // every third snapshot: a disjoint key window
    int width = 200 + r.nextInt(400);
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int i = base; i < base + width; i++) {
        if (r.nextInt(5) == 0) {
          continue; // a gap
        }
        int columns = 1 + r.nextInt(4);
        for (int c = 0; c < columns; c++) {
          // mostly a value every snapshot shares, so most rows of overlapping pairs are unchanged
          String v = r.nextInt(20) == 0 ? "n" + n + "-" + r.nextInt(3) : "v" + (i * 7 + c);
          w.put(key(i), "d", "c" + c, Bytes.toBytes(v));
        }
        if (r.nextInt(60) == 0) {
          for (int c = 0; c < 300; c++) {
            w.put(key(i), "d", "w" + c, Bytes.toBytes("wide-" + (r.nextInt(40) == 0 ? n : 0) + "-" + c));
          }
        }
        if (r.nextInt(15) == 0) {
          w.delete(key(i));
        }
      }
      return w.commit();
    }
  }

  private static RowScan randomScan(Random r) {
    RowScan scan = RowScan.all().caching(1 + r.nextInt(200)); // small caching: many round trips
    switch (r.nextInt(5)) {
      case 0 -> scan = scan.range(key(200 + r.nextInt(400)), key(700 + r.nextInt(600)));
      case 1 -> scan = scan.prefix(Bytes.toBytes("k0005"));
      case 2 -> scan = scan.range(null, key(r.nextInt(1500)));
      default -> { }
    }
    if (r.nextBoolean()) {
      scan = scan.column("d", "c0");
      if (r.nextBoolean()) {
        scan = scan.column("d", "c2");
      }
    }
    return r.nextInt(6) == 0 ? scan.limit(1 + r.nextInt(50)) : scan;
  }

  /**
   * Random pairs of twelve random snapshots of one dataset, diffed both ways with random key
   * ranges, prefixes, columns, limits and scanner caching; each diff and summary equals the
   * in-memory diff of what readers of the two snapshots get; and a snapshot diffed with itself is
   * empty.
   */
  @Test
  void randomPairsOfSnapshotsDiffAsTheirReadersRowsDo() {
    SnapshotDataset ds = create("diffrandom", 20);
    Random r = new Random(40);
    List<SnapshotInfo> snapshots = new ArrayList<>();
    for (int n = 0; n < 12; n++) {
      snapshots.add(randomSnapshot(ds, r, n));
    }
    int nonEmpty = 0;
    boolean sawEveryKind = false;
    for (int pair = 0; pair < 30; pair++) {
      SnapshotInfo from = snapshots.get(r.nextInt(snapshots.size()));
      SnapshotInfo to = snapshots.get(r.nextInt(snapshots.size()));
      RowScan scan = pair < 4 ? RowScan.all() : randomScan(r);
      List<RowChange> want = expected(ds.readSnapshot(from.id()), ds.readSnapshot(to.id()), scan);
      List<RowChange> got = changes(ds.diff(id(from), id(to), scan));
      assertEquals(want, got, "diff " + from.id() + ".." + to.id() + " with " + scan);
      DiffSummary summary = ds.diff(id(from), id(to), scan).summary();
      assertEquals(summaryOf(want, from.id(), to.id()), new DiffSummary(summary.from(), summary.to(),
          summary.added(), summary.removed(), summary.changed(), 0), "summary of " + from.id() + ".." + to.id());
      if (pair < 4) {
        assertProgressCountsEveryRow(ds, from, to, summary);
      }
      if (from.equals(to)) {
        assertTrue(got.isEmpty(), "a snapshot against itself: " + got);
      }
      nonEmpty += got.isEmpty() ? 0 : 1;
      sawEveryKind |= got.stream().map(RowChange::kind).distinct().count() == 3;
    }
    assertTrue(nonEmpty >= 15 && sawEveryKind, "the pairs exercised the merge: " + nonEmpty + " non-empty diffs");
    SnapshotInfo first = snapshots.get(0);
    DiffSummary self = ds.diff(id(first), id(first)).summary();
    assertEquals(0, self.changes());
    assertEquals(first.rowCount(), self.unchanged(), "every row of the snapshot, unchanged");
  }

  /**
   * {@code onProgress}: a report after every 7 rows read from either side and one at the end, the
   * counts never going back, the last equal to the summary and the rows read to both snapshots'
   * rows (a whole-range diff reads every row of each).
   */
  private static void assertProgressCountsEveryRow(SnapshotDataset ds, SnapshotInfo from, SnapshotInfo to,
      DiffSummary summary) {
    List<DiffSummary> reports = new ArrayList<>();
    List<RowChange> got = changes(ds.diff(id(from), id(to)).onProgress(7, reports::add));
    long rows = from.rowCount() + to.rowCount();
    assertEquals(rows / 7 + 1, reports.size(), "reports of a diff reading " + rows + " rows: " + reports);
    DiffSummary last = reports.get(reports.size() - 1);
    assertEquals(summary, last, "the last report is the diff's summary");
    assertEquals(got.size(), last.changes());
    assertEquals(rows, last.added() + last.removed() + 2 * (last.changed() + last.unchanged()), "rows read");
    for (int i = 1; i < reports.size(); i++) {
      DiffSummary a = reports.get(i - 1);
      DiffSummary b = reports.get(i);
      assertTrue(b.changes() + b.unchanged() >= a.changes() + a.unchanged(), "counts only grow: " + reports);
    }
    try (DiffScanner unread = ds.diff(id(from), id(to))) {
      assertThrows(IllegalArgumentException.class, () -> unread.onProgress(0, reports::add));
    }
  }

  /**
   * The selectors of reads: current, a tag and a time resolve as {@code readCurrent}, {@code
   * readTag} and {@code readAsOf} do; bad ones fail naming what was asked.
   */
  @Test
  void selectorsResolveAsReadsDoAndBadOnesFailNamingTheValue() throws Exception {
    SnapshotDataset ds = create("diffselect", 5);
    SnapshotInfo s1 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s1", 50);
    ds.manageTags(s1.id()).tag("before").commit();
    Instant between = Instant.now();
    Thread.sleep(20); // the history's next entry must be later than "between" (commit times are the tx clock's)
    SnapshotInfo s2 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s2", 60);
    List<RowChange> want = expected(ds.readSnapshot(s1.id()), ds.readSnapshot(s2.id()), RowScan.all());
    assertEquals(60, want.size(), "50 changed values and 10 new rows");
    assertEquals(want, changes(ds.diff(SnapshotSelector.tag("before"), SnapshotSelector.current())));
    assertEquals(want, changes(ds.diff(SnapshotSelector.asOf(between), SnapshotSelector.snapshot(s2.id()))));
    DiffScanner diff = ds.diff(SnapshotSelector.tag("before"), SnapshotSelector.current());
    assertEquals(List.of(s1.id(), s2.id()), List.of(diff.from(), diff.to()));
    diff.close();

    SnapshotNotAvailableException noTag = assertThrows(SnapshotNotAvailableException.class,
        () -> ds.diff(SnapshotSelector.tag("nope"), SnapshotSelector.current()));
    assertTrue(noTag.getMessage().contains("'nope'"), noTag.getMessage());
    SnapshotId unknown = SnapshotId.of(s2.id().value() + 12345);
    SnapshotNotAvailableException noId = assertThrows(SnapshotNotAvailableException.class,
        () -> ds.diff(SnapshotSelector.current(), SnapshotSelector.snapshot(unknown)));
    assertEquals(unknown, noId.snapshot().orElseThrow(), noId.getMessage());
    assertThrows(NullPointerException.class, () -> ds.diff(null, SnapshotSelector.current()));
  }

  /**
   * Both snapshots are pinned while the diff runs: expiring the older one and cleaning up in the
   * middle of the diff deletes nothing of it (the cleanup defers it), the diff comes out whole,
   * and once the diff is closed the next cleanup deletes it. Meanwhile other snapshots are
   * published and cleaned on another thread; every diff of the pair stays equal to the in-memory one.
   */
  @Test
  void aDiffKeepsBothSnapshotsWhileCleanupRunsOnOthers() throws Exception {
    SnapshotDataset ds = create("diffpinned", 2);
    SnapshotInfo s1 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s1", 400);
    SnapshotInfo s2 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s2", 300);
    RowScan small = RowScan.all().caching(7);
    List<RowChange> want = expected(ds.readSnapshot(s1.id()), ds.readSnapshot(s2.id()), small);
    assertEquals(400, want.size(), "300 changed, 100 removed");

    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> churnFailed = new AtomicReference<>();
    List<SnapshotId> cleanedByChurn = new java.util.concurrent.CopyOnWriteArrayList<>();
    SnapshotDataset other = cluster.datasets().open(ds.id());
    Thread churn = new Thread(() -> {
      try {
        for (int i = 0; i < 4 && !stop.get(); i++) {
          Fixtures.writeAndCommit(other.newSnapshot().begin(), "c" + i, 30);
          cleanedByChurn.addAll(other.cleanup().cleaned());
        }
      } catch (Throwable t) {
        churnFailed.set(t);
      }
    });
    List<RowChange> got = new ArrayList<>();
    try (DiffScanner diff = ds.diff(id(s1), id(s2), small)) {
      Iterator<RowChange> it = diff.iterator();
      for (int i = 0; i < 50; i++) {
        got.add(it.next());
      }
      churn.start(); // publishes expire s1 and s2 (retain 2); cleanup runs while the diff reads
      churn.join(120_000);
      assertEquals(null, churnFailed.get());
      CleanupResult mid = ds.cleanup();
      assertFalse(mid.cleaned().contains(s1.id()) || mid.cleaned().contains(s2.id()), "pinned: " + mid);
      assertFalse(cleanedByChurn.contains(s1.id()) || cleanedByChurn.contains(s2.id()), "pinned: " + cleanedByChurn);
      assertEquals(400, cluster.rawRows(ds.id(), s1.id()), "the older snapshot's rows are all there");
      it.forEachRemaining(got::add);
    } finally {
      stop.set(true);
    }
    assertEquals(want, got, "the diff came out whole");
    CleanupResult after = ds.cleanup();
    assertTrue(after.cleaned().containsAll(List.of(s1.id(), s2.id())), "unpinned at the end of the diff: " + after);
    assertEquals(0, cluster.rawRows(ds.id(), s1.id()));
  }

  /**
   * A diff whose pin lapsed (its process's clock says it still holds, a cleanup's says it lapsed
   * a day ago) while the older snapshot expired: cleanup collects the pin and deletes the rows,
   * and the diff fails with {@link SnapshotCleanedException} instead of reporting the deleted rows
   * as removed. A diff asked of a snapshot whose cleanup has begun fails at once, typed, and an
   * expired one is not readable.
   */
  @Test
  void aDiffOfASnapshotBeingCleanedFailsTypedNeverShort() {
    SnapshotDataset ds = create("diffcleaned", 1);
    MutableClock dayAgo = new MutableClock(Instant.now().minus(Duration.ofDays(1)));
    SnapshotDataset differ = cluster.datasets().withClock(dayAgo).open(ds.id());
    SnapshotInfo s1 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s1", 300);
    ds.manageTags(s1.id()).tag("keep").commit(); // retain 1 would expire it: a tag keeps it
    SnapshotInfo s2 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s2", 300);
    // s1 and s2 differ in every row's value
    DiffScanner diff = differ.diff(id(s1), id(s2), RowScan.all().caching(10));
    Iterator<RowChange> it = diff.iterator();
    assertEquals(RowChange.Kind.CHANGED, it.next().kind());
    ds.manageTags(s1.id()).untag("keep").commit();
    ds.expireSnapshots().expire(s1.id()).commit();
    CleanupResult cleaned = ds.cleanup();
    assertEquals(List.of(s1.id()), cleaned.cleaned(), "the diff's pin lapsed by the cleaner's clock");
    SnapshotCleanedException e = assertThrows(SnapshotCleanedException.class, () -> it.forEachRemaining(c -> {
      assertEquals(RowChange.Kind.CHANGED, c.kind(), "no row may come out as added: " + c);
    }));
    assertEquals(s1.id(), e.snapshot().orElseThrow());
    assertTrue(e.getMessage().contains("pin"), e.getMessage());
    diff.close();

    // cleanup begun (its mark written) on a snapshot still retained: refused at once
    SnapshotInfo s3 = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "s3", 10);
    new LockTable(cluster.connection(), ds.id().lockTable(), Clock.systemUTC()).markCleaning(s3.id());
    SnapshotCleanedException atOnce = assertThrows(SnapshotCleanedException.class,
        () -> ds.diff(SnapshotSelector.current(), id(s3)));
    assertEquals(s3.id(), atOnce.snapshot().orElseThrow());
    assertThrows(SnapshotNotAvailableException.class, () -> ds.diff(id(s1), SnapshotSelector.current()),
        "an expired snapshot is not readable");
  }

  /**
   * Snapshots of two schemas: a field added between them compares (rows that got a value are
   * changed); a field renamed or widened between them stores the same values as other cells, so
   * such a diff is refused naming the field, unless the diff's columns leave the field out.
   */
  @Test
  void aSchemaChangeBetweenTheSnapshotsComparesOrIsRefusedNamingTheField() {
    SnapshotDataset ds = create("diffschema", 10);
    ds.setSchema(Schema.parse("id long key, name string, price int"));
    SnapshotInfo v1 = writeTyped(ds, 100, false);
    ds.updateSchema(u -> u.addField("note", Type.STRING));
    SnapshotInfo v2 = writeTyped(ds, 100, true);
    List<RowChange> want = expected(ds.readSnapshot(v1.id()), ds.readSnapshot(v2.id()), RowScan.all());
    assertEquals(want, changes(ds.diff(id(v1), id(v2))));
    assertEquals(34, want.size(), "the rows that got a note (every third)");
    assertTrue(want.stream().allMatch(c -> c.kind() == RowChange.Kind.CHANGED));

    ds.updateSchema(u -> u.renameField("name", "label"));
    SnapshotInfo v3 = writeTyped(ds, 100, true);
    SchemaException renamed = assertThrows(SchemaException.class, () -> ds.diff(id(v2), id(v3)));
    assertEquals("name", renamed.field(), renamed.getMessage());
    RowScan price = RowScan.all().column("d", "price");
    assertEquals(expected(ds.readSnapshot(v2.id()), ds.readSnapshot(v3.id()), price),
        changes(ds.diff(id(v2), id(v3), price)), "the renamed field left out of the columns");
    assertTrue(changes(ds.diff(id(v2), id(v3), price)).isEmpty());

    ds.updateSchema(u -> u.widenField("price", Type.LONG));
    SnapshotInfo v4 = writeTyped(ds, 100, true);
    SchemaException widened = assertThrows(SchemaException.class, () -> ds.diff(id(v3), id(v4), price));
    assertEquals("price", widened.field(), widened.getMessage());
  }

  private static SnapshotInfo writeTyped(SnapshotDataset ds, int rows, boolean notes) {
    Schema schema = ds.schema().orElseThrow();
    RowCodec codec = new RowCodec(schema, "d");
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (long i = 0; i < rows; i++) {
        Map<String, Object> values = new TreeMap<>();
        values.put("id", i);
        values.put(schema.findField(2).orElseThrow().name(), "item " + i);
        values.put("price", schema.field("price").type().equals(Type.LONG) ? (Object) (i * 10) : (Object) (int) (i * 10));
        if (notes && i % 3 == 0 && schema.findField("note").isPresent()) {
          values.put("note", "note " + i);
        }
        w.put(codec.encode(values));
      }
      return w.commit();
    }
  }
}
