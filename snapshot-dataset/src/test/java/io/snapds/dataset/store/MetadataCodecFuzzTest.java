package io.snapds.dataset.store;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.testing.Fuzz;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Decoding metadata rows that were edited, truncated or written by something else: the decoder
 * returns a state or throws {@link CorruptMetadataException} naming the dataset, never another
 * exception. Goes through the narrowest entry point, {@code MetadataCodec.decode(rows)}.
 */
class MetadataCodecFuzzTest {
  private static final byte[] KINDS = {'s', 'n', 'h', 'r', 'k', 'f', 'p', 'x', 0};
  private static final String[] COLUMNS = {"version", "current", "state", "created", "committed", "rows", "bytes",
      "writer", "run", "source", "parent", "tags", "token", "cfence", "cleaned", "summary", "id", "reason"};
  private static final String[] STATES = {"BUILDING", "COMMITTED", "EXPIRED", "ABORTED", "building", ""};

  @Test
  void anyVisibleRowsDecodeOrAreReportedCorrupt() {
    Fuzz fuzz = Fuzz.seeded(1813);
    DatasetId dataset = DatasetId.of("fuzz", "meta");
    MetadataCodec codec = new MetadataCodec(dataset);
    for (int i = 0; i < Fuzz.count(1000); i++) {
      NavigableMap<byte[], NavigableMap<byte[], byte[]>> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      int n = fuzz.between(0, 6);
      for (int r = 0; r < n; r++) {
        byte kind = KINDS[fuzz.random().nextInt(KINDS.length)];
        byte[] suffix = fuzz.chance(0.6) ? Bytes.toBytes(fuzz.anyLong()) : fuzz.bytes();
        if (kind == 'h' && fuzz.chance(0.6)) {
          suffix = Bytes.add(Bytes.toBytes(fuzz.anyLong()), Bytes.toBytes(fuzz.anyLong()), Bytes.toBytes((short) 0));
        }
        NavigableMap<byte[], byte[]> cols = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        int c = fuzz.between(0, 8);
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
        rows.put(Bytes.add(new byte[] {kind}, suffix), cols);
      }
      try {
        codec.decode(rows);
      } catch (CorruptMetadataException expected) {
        assertTrue(expected.getMessage().contains(dataset.toString()), fuzz.where(i) + ": " + expected.getMessage());
      } catch (RuntimeException e) {
        fail(fuzz.where(i) + ": decoding threw " + e, e);
      }
    }
  }
}
