package io.snapds.dataset.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotKeys;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** A split carries its snapshot's key prefix to the task, and refuses a form of another version. */
class ReadSplitTest {
  private static final SnapshotId ID = SnapshotId.of(1_796_000_000_000_000_000L);

  @Test
  void theKeysTravelWithTheSplitOfEitherKind() throws IOException {
    for (SnapshotKeys keys : new SnapshotKeys[] {SnapshotKeys.numbered(ID, 300), SnapshotKeys.legacy(ID)}) {
      ReadSplit split = new ReadSplit(DatasetId.of("ns", "ds"), keys, keys.rowKey(Bytes.toBytes("a")),
          keys.stop(), "rs1");
      ReadSplit back = ReadSplit.read(new DataInputStream(new ByteArrayInputStream(bytes(split))));
      assertEquals(split, back);
      assertEquals(keys, back.keys());
    }
  }

  @Test
  void aSplitWrittenByAnotherVersionIsRefusedNotMisread() throws IOException {
    SnapshotKeys keys = SnapshotKeys.numbered(ID, 7);
    byte[] form = bytes(new ReadSplit(DatasetId.of("ns", "ds"), keys, keys.start(), keys.stop(), null));
    form[0] = 1;
    IOException e = assertThrows(IOException.class,
        () -> ReadSplit.read(new DataInputStream(new ByteArrayInputStream(form))));
    assertEquals("a split of wire version 1, this library reads 2: the job's client and its tasks run different"
        + " snapds versions", e.getMessage());
  }

  private static byte[] bytes(ReadSplit split) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    split.write(new DataOutputStream(out));
    return out.toByteArray();
  }
}
