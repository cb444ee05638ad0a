package io.snapds.dataset.store;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.StorageErrors;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The two reads of the metadata table that need no transaction, for processes that have only
 * HBase (a split reader), check a record once per region (a cleanup, before each piece) or run
 * while the dataset changes incarnation (a truncate): each is one {@code Get}, and each answers
 * conservatively from the raw cells.
 */
public final class RawMetadata {
  private static final byte[] KEY_NUMBER = Bytes.toBytes("keyno");

  private RawMetadata() {}

  /**
   * The highest key number any version of the pointer row's {@code kno} holds, 0 if none. Every
   * version counts, committed or not: a number a failed begin wrote may have reached a writer, and
   * the counter only grows, so the maximum is never below the last number given.
   */
  public static long highestKeyNumber(Connection connection, DatasetId dataset) {
    try (Table meta = connection.getTable(dataset.metaTable())) {
      Result r = meta.get(new Get(MetadataLayout.STATE_ROW).addColumn(TxMetaTable.FAMILY, MetadataLayout.KEY_NUMBERS)
          .readAllVersions());
      long max = 0;
      for (Cell c : r.listCells() == null ? java.util.List.<Cell>of() : r.listCells()) { // null for no cells
        if (c.getValueLength() == Long.BYTES) {
          max = Math.max(max, Bytes.toLong(CellUtil.cloneValue(c)));
        }
      }
      return max;
    } catch (IOException e) {
      throw StorageErrors.translate(dataset, "read the key number counter", e);
    }
  }

  /**
   * The key number the record of {@code snapshot} holds (0 for an 8-byte id prefix), or empty when
   * the metadata table has no record of it: the dataset was truncated, or dropped and created
   * again, or the record passed the history horizon. Reads the newest version of each column, so
   * a record a transaction in progress writes counts as there (only its own begin writes one).
   */
  public static Optional<Long> recordedKeyNumber(Connection connection, DatasetId dataset, SnapshotId snapshot) {
    try (Table meta = connection.getTable(dataset.metaTable())) {
      Result r = meta.get(new Get(MetadataLayout.key(MetadataLayout.SNAPSHOT, snapshot)).addFamily(TxMetaTable.FAMILY));
      boolean present = false;
      long number = 0;
      for (Cell c : r.listCells() == null ? java.util.List.<Cell>of() : r.listCells()) { // null for no cells
        if (c.getValueLength() == 0) {
          continue; // a transactional delete (the horizon's)
        }
        present = true;
        if (CellUtil.matchingQualifier(c, KEY_NUMBER) && c.getValueLength() == Long.BYTES) {
          number = Bytes.toLong(CellUtil.cloneValue(c));
        }
      }
      return present ? Optional.of(number) : Optional.empty();
    } catch (IOException e) {
      throw StorageErrors.translate(dataset, "read the record of snapshot " + snapshot, e);
    }
  }
}
