package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.snapds.dataset.store.PropertiesCodec;
import io.snapds.dataset.store.RowKeys;
import io.snapds.dataset.testing.Fuzz;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Property tests of what users and stored rows hand the library: dataset names, row keys,
 * snapshot ids and dataset properties. Random and adversarial input gives a correct value or a
 * clear error (IllegalArgumentException, CorruptMetadataException), never anything else.
 */
class InputFuzzTest {
  private static final List<String> PROPERTY_KEYS = List.of("families", "retention.last", "retention.max.age",
      "lock.lease", "lock.heartbeat", "lock.acquire.timeout", "lock.max.waiters", "lock.retry.attempts",
      "lock.retry.backoff", "lock.retry.max.backoff", "build.max.time", "commit.retries", "format.version");

  @Test
  void datasetIdsParseOrSayWhatIsWrong() {
    Fuzz fuzz = Fuzz.seeded(18);
    for (int i = 0; i < Fuzz.count(400); i++) {
      String s = fuzz.chance(0.5) ? fuzz.string() + ":" + fuzz.string() : fuzz.string();
      try {
        DatasetId id = DatasetId.parse(s);
        assertEquals(id, DatasetId.parse(id.toString()), fuzz.where(i));
        id.dataTable(); // a valid HBase table name
        id.lockTable();
      } catch (IllegalArgumentException expected) {
        assertTrue(expected.getMessage().startsWith("invalid "), fuzz.where(i) + ": " + expected.getMessage());
      } catch (RuntimeException e) {
        fail(fuzz.where(i) + ": input " + abbreviate(s) + " threw " + e);
      }
    }
  }

  @Test
  void rowKeysRoundTripAndStayInsideTheirSnapshot() {
    Fuzz fuzz = Fuzz.seeded(1810);
    for (int i = 0; i < Fuzz.count(400); i++) {
      long raw = fuzz.anyLong();
      byte[] key = fuzz.chance(0.01) ? new byte[RowKeys.MAX_USER_KEY_LENGTH + 1] : fuzz.bytes();
      SnapshotId id;
      try {
        id = SnapshotId.of(raw);
      } catch (IllegalArgumentException expected) {
        continue;
      }
      try {
        SnapshotKeys k = fuzz.chance(0.5) ? SnapshotKeys.legacy(id)
            : SnapshotKeys.numbered(id, 1 + ((raw & Long.MAX_VALUE) >>> (8 + (int) ((raw >>> 3) % 56))));
        byte[] row = k.rowKey(key);
        assertArrayEquals(key, k.userKey(row), fuzz.where(i));
        assertEquals(k, SnapshotKeys.of(id, k.prefix()), fuzz.where(i));
        assertTrue(Bytes.compareTo(k.start(), row) <= 0 && Bytes.compareTo(row, k.stop()) < 0,
            fuzz.where(i) + ": row key outside its snapshot's range");
        assertEquals(id, SnapshotId.parse(id.toString()), fuzz.where(i));
      } catch (IllegalArgumentException expected) {
        assertTrue(key.length == 0 || key.length > RowKeys.MAX_USER_KEY_LENGTH, fuzz.where(i) + ": " + expected);
      } catch (RuntimeException e) {
        fail(fuzz.where(i) + " threw " + e);
      }
    }
  }

  @Test
  void snapshotIdTextParsesOrSaysWhatIsWrong() {
    Fuzz fuzz = Fuzz.seeded(1811);
    for (int i = 0; i < Fuzz.count(400); i++) {
      String s = fuzz.chance(0.5) ? Long.toString(fuzz.anyLong()) : fuzz.string();
      try {
        SnapshotId id = SnapshotId.parse(s);
        assertEquals(id, SnapshotId.parse(id.toString()), fuzz.where(i));
      } catch (IllegalArgumentException expected) {
        assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty(), fuzz.where(i));
      } catch (RuntimeException e) {
        fail(fuzz.where(i) + ": input " + abbreviate(s) + " threw " + e);
      }
    }
  }

  @Test
  void storedPropertiesDecodeOrAreReportedCorrupt() {
    Fuzz fuzz = Fuzz.seeded(1812);
    DatasetId dataset = DatasetId.of("fuzz", "props");
    Map<String, String> valid = PropertiesCodec.encode(DatasetProperties.defaults());
    for (int i = 0; i < Fuzz.count(400); i++) {
      Map<String, String> m = new LinkedHashMap<>(valid);
      int edits = fuzz.between(1, 3);
      for (int e = 0; e < edits; e++) {
        String key = fuzz.chance(0.8) ? PROPERTY_KEYS.get(fuzz.random().nextInt(PROPERTY_KEYS.size())) : fuzz.string();
        if (fuzz.chance(0.15)) {
          m.remove(key);
        } else {
          m.put(key, fuzz.chance(0.3) ? Long.toString(fuzz.anyLong()) : fuzz.string());
        }
      }
      try {
        DatasetProperties p = PropertiesCodec.decode(dataset, m);
        assertEquals(p, PropertiesCodec.decode(dataset, PropertiesCodec.encode(p)), fuzz.where(i) + ": round trip");
      } catch (CorruptMetadataException expected) {
        assertTrue(expected.getMessage().contains(dataset.toString()), fuzz.where(i) + ": " + expected.getMessage());
      } catch (RuntimeException e) {
        fail(fuzz.where(i) + ": properties " + abbreviate(m.toString()) + " threw " + e);
      }
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
