package io.snapds.dataset.store;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.StorageErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Whether a snapshot's record says its rows may be gone, read without a transaction: one raw get of
 * the record's {@code state} and {@code cleaned} columns, every version. For a reader's check after
 * its rows (see {@code LockTable.cleaningState}), which must not need Tephra (a MapReduce task has
 * only HBase).
 *
 * <p>Raw versions include uncommitted and failed writes, and the answer is right with them too: a
 * {@code cleaned} value is only ever written after the snapshot's rows were deleted, and a record is
 * only ever deleted (empty values, then purged) once it is cleaned. So a record whose row is gone,
 * whose newest {@code state} is a delete, or that has any {@code cleaned} value, has lost its rows
 * or is losing them; any other record has not.
 */
@InterfaceAudience.Private
public final class RecordProbe {
  private static final byte[] STATE = Bytes.toBytes("state");
  private static final byte[] CLEANED = Bytes.toBytes("cleaned");

  private RecordProbe() {}

  /** True if {@code snapshot}'s record is gone, being deleted, or records it cleaned. */
  public static boolean goneOrCleaned(Connection connection, DatasetId dataset, SnapshotId snapshot) {
    try (Table meta = connection.getTable(dataset.metaTable())) {
      Result r = meta.get(new Get(MetadataLayout.key(MetadataLayout.SNAPSHOT, snapshot))
          .addColumn(TxMetaTable.FAMILY, STATE).addColumn(TxMetaTable.FAMILY, CLEANED).readAllVersions());
      return goneOrCleaned(r.getColumnCells(TxMetaTable.FAMILY, STATE), r.getColumnCells(TxMetaTable.FAMILY, CLEANED));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset, "read the record of snapshot " + snapshot, e);
    }
  }

  /** The rule, on the cells (newest first) of the two columns. */
  static boolean goneOrCleaned(List<Cell> state, List<Cell> cleaned) {
    if (state.isEmpty() || state.get(0).getValueLength() == 0) {
      return true; // purged, or deleted by the horizon (only cleaned records are)
    }
    for (Cell c : cleaned) {
      if (c.getValueLength() > 0) {
        return true;
      }
    }
    return false;
  }
}
