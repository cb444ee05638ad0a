package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionType;
import org.junit.jupiter.api.Test;

class SnapshotHandleTest {
  @Test
  void roundTripsThroughItsStringForm() {
    Transaction tx = new Transaction(10, 12, new long[] {3}, new long[] {11}, 11, TransactionType.SHORT);
    SnapshotHandle h = new SnapshotHandle(SnapshotId.of(12), tx,
        new WriterOptions("me@host", "run-1", null, "writer", 4096), 7);
    SnapshotHandle back = SnapshotHandle.decode(h.encode());
    assertEquals(SnapshotId.of(12), back.snapshotId());
    assertEquals(7, back.token);
    assertEquals(h.options, back.options);
    assertEquals(tx.getWritePointer(), back.buildTx.getWritePointer());
  }

  @Test
  void rejectsGarbageNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SnapshotHandle.decode("not-a-handle"));
    assertTrue(e.getMessage().startsWith("invalid snapshot handle 'not-a-handle'"), e.getMessage());
  }
}
