package io.snapds.dataset.store;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.testing.Fuzz;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Decoding snapshot records that were edited, truncated or written by something else: the decoder
 * returns a record or throws {@link CorruptMetadataException} naming the dataset, never another
 * exception. Goes through the narrowest entry point, {@code MetadataCodec.decode(dataset, row, id,
 * columns)}, which every read of a snapshot record (the pointer's current record, index ranges,
 * history) passes through.
 */
class MetadataCodecFuzzTest {
  private static final String[] COLUMNS = {"state", "created", "committed", "rows", "bytes", "writer", "run",
      "source", "parent", "tags", "token", "cfence", "cleaned", "summary", "version", "current", "id", "reason"};
  private static final String[] STATES = {"BUILDING", "COMMITTED", "EXPIRED", "ABORTED", "building", ""};

  @Test
  void anySnapshotRecordDecodesOrIsReportedCorrupt() {
    Fuzz fuzz = Fuzz.seeded(1813);
    DatasetId dataset = DatasetId.of("fuzz", "meta");
    for (int i = 0; i < Fuzz.count(2000); i++) {
      long idValue = Math.max(1, fuzz.chance(0.8) ? fuzz.anyLong() & Long.MAX_VALUE : fuzz.between(1, 10));
      SnapshotId id = SnapshotId.of(idValue);
      byte[] row = Bytes.add(new byte[] {'n'}, Bytes.toBytes(idValue));
      NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      int c = fuzz.between(0, 12);
      for (int k = 0; k < c; k++) {
        String q = fuzz.chance(0.9) ? COLUMNS[fuzz.random().nextInt(COLUMNS.length)] : fuzz.string();
        byte[] v;
        if (q.equals("state") && fuzz.chance(0.7)) {
          v = Bytes.toBytes(STATES[fuzz.random().nextInt(STATES.length)]);
        } else {
          v = fuzz.chance(0.6) ? Bytes.toBytes(fuzz.anyLong()) : fuzz.bytes();
        }
        cols.put(Bytes.toBytes(q), v);
      }
      try {
        MetadataCodec.decode(dataset, row, id, cols);
      } catch (CorruptMetadataException expected) {
        assertTrue(expected.getMessage().contains(dataset.toString()), fuzz.where(i) + ": " + expected.getMessage());
      } catch (RuntimeException e) {
        fail(fuzz.where(i) + ": decoding threw " + e, e);
      }
    }
  }
}
