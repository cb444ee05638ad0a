package io.snapds.dataset.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reading core on its own, on the mini cluster: {@link SnapshotSelector} resolves and pins,
 * {@link SnapshotRead} plans with {@link SplitPlanner} over the data table's regions,
 * {@link SplitReader} reads each split, and the {@link PinRegistry} holds, renews and releases
 * pins. Every engine (MapReduce, Hive, the CDAP source) runs this plan; their own tests check
 * what they add.
 */
@ExtendWith(MiniClusterExtension.class)
class SnapshotReadTest {
  private static final Duration TTL = Duration.ofMinutes(10);
  private static final List<byte[]> SPLIT_POINTS = List.of(Bytes.toBytes("g"), Bytes.toBytes("n"), Bytes.toBytes("t"));

  private final MiniCluster cluster = MiniCluster.get();
  private final Connection connection = cluster.connection();

  private SnapshotDataset create(String name, RetentionPolicy retention) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(name),
        DatasetProperties.builder().retention(retention).firstSplitPoints(SPLIT_POINTS).build());
  }

  /** Publishes one row per letter from {@code a} to {@code z}, each with {@code tag} as value; returns what a reader must get. */
  private static SnapshotInfo publish(SnapshotDataset ds, String tag, Map<String, String> expected) {
    SnapshotWriter w = ds.newSnapshot().begin();
    for (char c = 'a'; c <= 'z'; c++) {
      String value = tag + "-" + c;
      w.put(Bytes.toBytes(String.valueOf(c)), "d", "v", Bytes.toBytes(value));
      expected.put(String.valueOf(c), value);
    }
    return w.commit();
  }

  /** Reads every split as a task does; a key read twice fails the test. */
  private Map<String, String> readAll(List<ReadSplit> splits) throws IOException {
    Map<String, String> rows = new TreeMap<>();
    for (ReadSplit split : splits) {
      try (SplitReader reader = SplitReader.open(connection, split, RowScan.all(), false, "read again")) {
        while (reader.next()) {
          String key = Bytes.toString(reader.key());
          String previous = rows.put(key, Bytes.toString(reader.row().value("d", "v")));
          assertEquals(null, previous, "key " + key + " read twice");
        }
      }
    }
    return rows;
  }

  private int livePins(SnapshotDataset ds, SnapshotId snapshot) {
    return new LockTable(connection, ds.id().lockTable(), Clock.systemUTC()).livePins(snapshot);
  }

  @Test
  void everySelectorPinsItsSnapshotAndItsSplitsGiveExactlyItsRows() throws Exception {
    SnapshotDataset ds = create("selectors", RetentionPolicy.retainLast(5));
    Map<String, String> first = new TreeMap<>();
    Map<String, String> second = new TreeMap<>();
    SnapshotInfo s1 = publish(ds, "one", first);
    ds.manageTags(s1.id()).tag("gold").commit();
    SnapshotInfo s2 = publish(ds, "two", second);

    Map<SnapshotSelector, SnapshotInfo> cases = Map.of(SnapshotSelector.current(), s2,
        SnapshotSelector.snapshot(s1.id()), s1, SnapshotSelector.tag("gold"), s1,
        SnapshotSelector.asOf(s1.committedAt().orElseThrow()), s1);
    for (Map.Entry<SnapshotSelector, SnapshotInfo> c : cases.entrySet()) {
      try (SnapshotRead read = SnapshotRead.pin(connection, ds, c.getKey(), "test", TTL)) {
        SnapshotId expected = c.getValue().id();
        assertEquals(expected, read.snapshotId(), c.getKey().toString());
        assertEquals(1, livePins(ds, expected), c.getKey() + " took one pin");
        List<ReadSplit> splits = read.planSplits(RowScan.all());
        assertEquals(4, splits.size(), c.getKey() + ": one split per region of the snapshot: " + splits);
        for (int i = 1; i < splits.size(); i++) {
          assertTrue(Bytes.equals(splits.get(i - 1).stopRow(), splits.get(i).startRow()), "splits meet: " + splits);
        }
        assertTrue(splits.stream().allMatch(s -> s.snapshotId().equals(expected)));
        assertEquals(expected.equals(s1.id()) ? first : second, readAll(splits), c.getKey().toString());
        assertEquals(java.util.Optional.empty(), read.schema(), "a schema-less snapshot");
        assertEquals("d", read.schemaFamily());
      }
      assertEquals(0, livePins(ds, c.getValue().id()), c.getKey() + ": closing the read released its pin");
    }
  }

  @Test
  void aKeyRangePlansOnlyTheRegionsItTouchesAndReadsOnlyItsRows() throws Exception {
    SnapshotDataset ds = create("range", RetentionPolicy.retainLast(5));
    Map<String, String> all = new TreeMap<>();
    publish(ds, "one", all);
    try (SnapshotRead read = SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", TTL)) {
      List<ReadSplit> splits = read.planSplits(RowScan.all().range(Bytes.toBytes("h"), Bytes.toBytes("p")));
      assertEquals(2, splits.size(), "[h, p) touches the regions from g and from n: " + splits);
      assertEquals(new TreeMap<>(((TreeMap<String, String>) all).subMap("h", "p")), readAll(splits));

      List<ReadSplit> two = read.planSplits(List.of(RowScan.all().range(Bytes.toBytes("a"), Bytes.toBytes("c")),
          RowScan.all().range(Bytes.toBytes("x"), Bytes.toBytes("z"))));
      assertEquals(2, two.size(), "two ranges in two regions: " + two);
      Map<String, String> expected = new TreeMap<>(((TreeMap<String, String>) all).subMap("a", "c"));
      expected.putAll(((TreeMap<String, String>) all).subMap("x", "z"));
      assertEquals(expected, readAll(two));
    }
  }

  @Test
  void thePinKeepsAnExpiredSnapshotFromCleanupUntilTheReadIsClosed() throws Exception {
    SnapshotDataset ds = create("keeps", RetentionPolicy.retainLast(1));
    Map<String, String> first = new TreeMap<>();
    SnapshotInfo s1 = publish(ds, "one", first);
    SnapshotRead read = SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", TTL);
    List<ReadSplit> splits = read.planSplits(RowScan.all());
    Instant expires = read.pin().orElseThrow().expiresAt();
    publish(ds, "two", new TreeMap<>()); // s1 expires
    assertEquals(List.of(), ds.cleanup().cleaned(), "the pin keeps the expired snapshot");
    read.renew();
    assertTrue(read.pin().orElseThrow().expiresAt().isAfter(expires), "renewal moved the pin's end");
    assertEquals(first, readAll(splits));

    read.close();
    read.close(); // idempotent
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned(), "released, the snapshot is cleaned");
    SnapshotCleanedException e = assertThrows(SnapshotCleanedException.class, () -> readAll(splits));
    assertTrue(e.getMessage().contains(s1.id().toString()), e.getMessage());
    SnapshotNotAvailableException gone = assertThrows(SnapshotNotAvailableException.class, read::renew);
    assertTrue(gone.getMessage().contains("is gone"), gone.getMessage());
  }

  @Test
  void aReadPinnedElsewhereChecksTheSnapshotIsStillReadableAndHoldsNoPin() throws Exception {
    SnapshotDataset ds = create("elsewhere", RetentionPolicy.retainLast(1));
    Map<String, String> first = new TreeMap<>();
    SnapshotInfo s1 = publish(ds, "one", first);
    SnapshotRead elsewhere = SnapshotRead.pinnedElsewhere(connection, ds, s1.id());
    assertEquals(java.util.Optional.empty(), elsewhere.pin());
    assertEquals(first, readAll(elsewhere.planSplits(RowScan.all())));
    IllegalStateException renew = assertThrows(IllegalStateException.class, elsewhere::renew);
    assertEquals("snapshot " + s1.id() + " of " + ds.id() + " was pinned elsewhere: its holder renews it",
        renew.getMessage());

    publish(ds, "two", new TreeMap<>());
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned());
    SnapshotNotAvailableException cleaned = assertThrows(SnapshotNotAvailableException.class,
        () -> SnapshotRead.pinnedElsewhere(connection, ds, s1.id()));
    assertTrue(cleaned.getMessage().contains(s1.id() + " of dataset " + ds.id()) && cleaned.getMessage()
        .contains("was cleaned"), cleaned.getMessage());

    try (SnapshotWriter building = ds.newSnapshot().begin()) {
      SnapshotNotAvailableException notCommitted = assertThrows(SnapshotNotAvailableException.class,
          () -> SnapshotRead.pinnedElsewhere(connection, ds, building.snapshotId()));
      assertTrue(notCommitted.getMessage().contains(building.snapshotId().toString()), notCommitted.getMessage());
    }
  }

  @Test
  void badSelectionsAreTypedErrorsNamingTheBadValue() {
    SnapshotDataset ds = create("errors", RetentionPolicy.retainLast(1));
    publish(ds, "one", new TreeMap<>());
    SnapshotId unknown = SnapshotId.of(42);
    SnapshotNotAvailableException noId = assertThrows(SnapshotNotAvailableException.class,
        () -> SnapshotRead.pin(connection, ds, SnapshotSelector.snapshot(unknown), "test", TTL));
    assertTrue(noId.getMessage().contains(unknown.toString()), noId.getMessage());
    SnapshotNotAvailableException noTag = assertThrows(SnapshotNotAvailableException.class,
        () -> SnapshotRead.pin(connection, ds, SnapshotSelector.tag("missing"), "test", TTL));
    assertTrue(noTag.getMessage().contains("missing"), noTag.getMessage());
    IllegalArgumentException ttl = assertThrows(IllegalArgumentException.class,
        () -> SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", Duration.ZERO));
    assertTrue(ttl.getMessage().contains("pin time-to-live") && ttl.getMessage().contains("PT0S"), ttl.getMessage());
    IllegalArgumentException emptyTag = assertThrows(IllegalArgumentException.class, () -> SnapshotSelector.tag(""));
    assertEquals("tag must not be empty", emptyTag.getMessage());
    assertEquals("snapshot tagged 'gold'", SnapshotSelector.tag("gold").toString());
    assertEquals(SnapshotSelector.tag("gold"), SnapshotSelector.tag("gold"));
    assertNotEquals(SnapshotSelector.tag("gold"), SnapshotSelector.current());
  }

  @Test
  void theRegistryHoldsRenewsAndReleasesAHoldersReads() throws Exception {
    SnapshotDataset ds = create("registry", RetentionPolicy.retainLast(1));
    SnapshotInfo s1 = publish(ds, "one", new TreeMap<>());
    String holder = "test:" + ds.id();
    AtomicBoolean closed = new AtomicBoolean();
    SnapshotRead read = PinRegistry.hold(holder,
        SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", Duration.ofMillis(600)),
        () -> closed.set(true));
    assertEquals(List.of(read), PinRegistry.held(holder));
    Instant first = read.pin().orElseThrow().expiresAt();
    // the registry renews every third of the time-to-live: wait for a renewal to show
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!read.pin().orElseThrow().expiresAt().isAfter(first) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(read.pin().orElseThrow().expiresAt().isAfter(first), "the held pin was renewed");

    SnapshotRead once = PinRegistry.holdOnce(holder, "key",
        () -> SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", TTL));
    assertSame(once, PinRegistry.holdOnce(holder, "key", () -> {
      throw new AssertionError("a second pin for the same key");
    }));
    assertEquals(2, livePins(ds, s1.id()), "one pin per key");
    assertEquals(2, PinRegistry.held(holder).size());

    publish(ds, "two", new TreeMap<>()); // s1 expires
    assertEquals(List.of(), ds.cleanup().cleaned(), "held pins keep it");
    assertTrue(PinRegistry.release(holder));
    assertTrue(closed.get(), "what was held with the reads closed with them");
    assertEquals(0, livePins(ds, s1.id()), "released");
    assertEquals(List.of(), PinRegistry.held(holder));
    assertFalse(PinRegistry.release(holder), "nothing left to release");
    assertEquals(List.of(s1.id()), ds.cleanup().cleaned());

    IllegalArgumentException notOwn = assertThrows(IllegalArgumentException.class,
        () -> PinRegistry.hold(holder, SnapshotRead.pinnedElsewhere(connection, ds, ds.currentSnapshot().orElseThrow().id())));
    assertTrue(notOwn.getMessage().contains("holds no pin of its own"), notOwn.getMessage());
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
        () -> PinRegistry.holdOnce(" ", "k", () -> null));
    assertEquals("holder must not be blank, got ' '", blank.getMessage());
  }

  @Test
  void theRegistryReleasesOldHoldersOfOnePrefixOnly() {
    SnapshotDataset ds = create("old", RetentionPolicy.retainLast(5));
    SnapshotInfo s1 = publish(ds, "one", new TreeMap<>());
    String prefix = "test-old-" + ds.id().name() + ":";
    PinRegistry.hold(prefix + "q1", SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", TTL));
    String other = "test-other-" + ds.id().name();
    PinRegistry.hold(other, SnapshotRead.pin(connection, ds, SnapshotSelector.current(), "test", TTL));
    assertEquals(0, PinRegistry.releaseOlderThan(prefix, Duration.ofDays(2)), "not old yet");
    assertEquals(1, PinRegistry.releaseOlderThan(prefix, Duration.ZERO));
    assertEquals(List.of(), PinRegistry.held(prefix + "q1"));
    assertEquals(1, livePins(ds, s1.id()), "another prefix's pin is kept");
    assertTrue(PinRegistry.release(other));
    List<SnapshotId> none = new ArrayList<>();
    assertEquals(none, PinRegistry.held(other).stream().map(SnapshotRead::snapshotId).toList());
  }
}
