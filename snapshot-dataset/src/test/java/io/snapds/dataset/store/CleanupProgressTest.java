package io.snapds.dataset.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.store.CleanupProgress.KeyRange;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The bookkeeping of a resumable cleanup (issue #12 item 2): pieces over region boundaries, resume, storage. */
class CleanupProgressTest {
  private static final DatasetId ID = DatasetId.of("ns", "ds");
  private static final byte[] END = new byte[0];

  private static byte[] k(String s) {
    return Bytes.toBytes(s);
  }

  private static KeyRange r(String start, String stop) {
    return new KeyRange(start.isEmpty() ? END : k(start), stop.isEmpty() ? END : k(stop));
  }

  @Test
  void aFreshCleanupHasOnePiecePerRegion() {
    assertEquals(List.of(KeyRange.ALL), CleanupProgress.NONE.remaining(List.of()));
    assertEquals(List.of(r("", "c"), r("c", "m"), r("m", "")),
        CleanupProgress.NONE.remaining(List.of(k("c"), k("m"))));
  }

  @Test
  void piecesRecordedDoneAreNotPlannedAgain() {
    CleanupProgress p = CleanupProgress.NONE.with(r("c", "m"), 40).with(r("", "c"), 10);
    assertEquals(List.of(r("", "m")), p.done(), "adjacent ranges are joined: " + p);
    assertEquals(50, p.rows());
    assertEquals(List.of(r("m", "")), p.remaining(List.of(k("c"), k("m"))));
    assertFalse(p.complete());
    CleanupProgress all = p.with(r("m", ""), 5);
    assertTrue(all.complete());
    assertEquals(List.of(), all.remaining(List.of(k("c"), k("m"))));
  }

  @Test
  void resumeAfterTheRegionsChangedDeletesOnlyWhatIsNotDone() {
    // done at yesterday's regions [c, m) and [t, end); today the table splits at f and q and merged at t
    CleanupProgress p = CleanupProgress.NONE.with(r("c", "m"), 1).with(r("t", ""), 1);
    assertEquals(List.of(r("", "c"), r("m", "q"), r("q", "t")), p.remaining(List.of(k("f"), k("q"))));
    // one region over everything now: only the gaps are left
    assertEquals(List.of(r("", "c"), r("m", "t")), p.remaining(List.of()));
    // boundaries inside done ranges cut nothing that is done
    assertEquals(List.of(r("", "b"), r("b", "c"), r("m", "t")), p.remaining(List.of(k("b"), k("d"), k("u"))));
  }

  /** Any order of pieces, any boundaries before and after: done and remaining cover the range exactly once. */
  @Test
  void doneAndRemainingPartitionTheRangeWhateverTheBoundaries() {
    Random random = new Random(12);
    for (int round = 0; round < 500; round++) {
      List<byte[]> before = boundaries(random);
      List<KeyRange> pieces = CleanupProgress.NONE.remaining(before);
      CleanupProgress p = CleanupProgress.NONE;
      for (KeyRange piece : pieces) {
        if (random.nextBoolean()) {
          p = p.with(piece, 1);
        }
      }
      List<byte[]> after = boundaries(random);
      List<KeyRange> left = p.remaining(after);
      for (int key = 0; key < 256; key++) {
        byte[] probe = {(byte) key};
        long inDone = p.done().stream().filter(d -> contains(d, probe)).count();
        long inLeft = left.stream().filter(d -> contains(d, probe)).count();
        assertEquals(1, inDone + inLeft, "key " + key + " in round " + round + ": done " + p + ", left " + left);
      }
      assertEquals(p, CleanupProgress.decode(p.encode()), "round trips through its stored form");
    }
  }

  private static List<byte[]> boundaries(Random random) {
    TreeSet<Integer> points = new TreeSet<>();
    for (int i = random.nextInt(8); i > 0; i--) {
      points.add(1 + random.nextInt(255));
    }
    List<byte[]> out = new ArrayList<>();
    points.forEach(b -> out.add(new byte[] {(byte) (int) b}));
    return out;
  }

  private static boolean contains(KeyRange r, byte[] key) {
    return Bytes.compareTo(r.start(), key) <= 0 && KeyRange.stopAfter(r.stop(), key);
  }

  @Test
  void badBoundariesAndRangesAreRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CleanupProgress.NONE.remaining(List.of(k("m"), k("c"))));
    assertEquals("region boundaries must be non-empty and ascending, got c after m", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> r("m", "c"));
    assertEquals("empty range [m, c)", e.getMessage());
  }

  @Test
  void theProgressRowIsStoredUntilRemoved() {
    InMemoryMetadataStore store = new InMemoryMetadataStore(ID, Clock.systemUTC());
    SnapshotId id = SnapshotId.of(42);
    assertEquals(CleanupProgress.NONE, store.read(v -> v.cleanupProgress(id)));
    CleanupProgress p = CleanupProgress.NONE.with(r("c", "m"), 7);
    store.update("progress", v -> {
      v.putCleanupProgress(id, p);
      assertEquals(p, v.cleanupProgress(id), "the view sees its own change");
      return null;
    });
    assertEquals(p, store.read(v -> v.cleanupProgress(id)));
    assertEquals(1, progressRows(store));
    store.update("done", v -> {
      v.putCleanupProgress(id, CleanupProgress.NONE);
      return null;
    });
    assertEquals(CleanupProgress.NONE, store.read(v -> v.cleanupProgress(id)));
    assertEquals(0, progressRows(store), "the row is gone");
  }

  private static int progressRows(InMemoryMetadataStore store) {
    return store.read(v -> ((LayoutView) v).rows().scan(MetadataLayout.kindStart(MetadataLayout.CLEANUP_PROGRESS),
        MetadataLayout.kindStop(MetadataLayout.CLEANUP_PROGRESS), false, 10).size());
  }

  @Test
  void aCorruptProgressRowNamesItself() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CleanupProgress.decode(new byte[] {9}));
    assertEquals("unknown cleanup progress format 9", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CleanupProgress.decode(new byte[] {1, 0, 0}));
  }

  @Test
  void cleanupThreadsAreValidatedAndStored() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DatasetProperties.builder().cleanupThreads(0).build());
    assertEquals("cleanup.threads must be between 1 and 256, got 0", e.getMessage());
    assertEquals(4, DatasetProperties.defaults().cleanupThreads());
    DatasetProperties p = DatasetProperties.builder().cleanupThreads(9).build();
    assertEquals(p, PropertiesCodec.decode(ID, PropertiesCodec.encode(p)));
    Map<String, String> old = new java.util.HashMap<>(PropertiesCodec.encode(DatasetProperties.defaults()));
    old.remove("cleanup.threads");
    assertEquals(4, PropertiesCodec.decode(ID, old).cleanupThreads(), "absent in older properties: the default");
    old.put("cleanup.threads", "1000");
    CorruptMetadataException c = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, old));
    assertTrue(c.getMessage().contains("cleanup.threads must be between 1 and 256, got 1000"), c.getMessage());
  }
}
