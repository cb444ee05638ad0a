package io.snapds.dataset.store;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.StorageErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The reads of the metadata table that need no transaction, for processes that have only HBase (a
 * split reader), check a record once per region (a cleanup, before each piece) or run while the
 * dataset changes incarnation (a truncate): each is one {@code Get}, and each answers
 * conservatively from the raw cells, uncommitted and failed versions included.
 */
public final class RawMetadata {
  private static final byte[] KEY_NUMBER = Bytes.toBytes("keyno");
  private static final byte[] STATE = Bytes.toBytes("state");
  private static final byte[] CLEANED = Bytes.toBytes("cleaned");

  private RawMetadata() {}

  /** The record of {@code snapshot} as its raw cells say: one {@code Get} of every version of its row. */
  public static RawRecord record(Connection connection, DatasetId dataset, SnapshotId snapshot) {
    try (Table meta = connection.getTable(dataset.metaTable())) {
      return RawRecord.of(cells(meta.get(new Get(MetadataLayout.key(MetadataLayout.SNAPSHOT, snapshot))
          .addFamily(MetadataLayout.FAMILY).readAllVersions())));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset, "read the record of snapshot " + snapshot, e);
    }
  }

  /** See {@link RawRecord#keyNumber()}. */
  public static Optional<Long> recordedKeyNumber(Connection connection, DatasetId dataset, SnapshotId snapshot) {
    return record(connection, dataset, snapshot).keyNumber();
  }

  /**
   * An upper bound of the key numbers the dataset gave: the highest value of any stored version of
   * the pointer row's {@code kno}, committed, in progress or failed (a transaction that took more
   * numbers than a later one may have failed after it). One {@code Get} of a handful of versions
   * (they are pruned, see "Metadata that stays small"). 0 for a dataset that never numbered.
   */
  public static long highestKeyNumber(Connection connection, DatasetId dataset) {
    try (Table meta = connection.getTable(dataset.metaTable())) {
      long highest = 0;
      for (Cell c : cells(meta.get(new Get(PointerRow.ROW).addColumn(MetadataLayout.FAMILY, PointerRow.KEY_NUMBERS)
          .readAllVersions()))) {
        if (c.getValueLength() == Long.BYTES) {
          highest = Math.max(highest, Bytes.toLong(CellUtil.cloneValue(c)));
        }
      }
      return highest;
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset, "read the key numbers given", e);
    }
  }

  /** {@code Result.rawCells()} is null for a result without cells (HBase's javadoc allows it). */
  private static List<Cell> cells(Result r) {
    return r.listCells() == null ? List.of() : r.listCells();
  }

  /** What the raw versions of one snapshot record say. */
  public static final class RawRecord {
    private final Optional<Long> keyNumber;
    private final boolean goneOrCleaned;

    private RawRecord(Optional<Long> keyNumber, boolean goneOrCleaned) {
      this.keyNumber = keyNumber;
      this.goneOrCleaned = goneOrCleaned;
    }

    /** Cells come per column, newest first: each column's newest version decides it. */
    static RawRecord of(List<Cell> cells) {
      boolean present = false;
      long number = 0;
      boolean stateLive = false;
      boolean cleaned = false;
      byte[] column = null;
      for (Cell c : cells) {
        boolean newest = column == null || !CellUtil.matchingQualifier(c, column);
        if (newest) {
          column = CellUtil.cloneQualifier(c);
          present |= c.getValueLength() > 0; // empty: a transactional delete (the horizon's)
          if (CellUtil.matchingQualifier(c, KEY_NUMBER) && c.getValueLength() == Long.BYTES) {
            number = Bytes.toLong(CellUtil.cloneValue(c));
          }
          if (CellUtil.matchingQualifier(c, STATE)) {
            stateLive = c.getValueLength() > 0;
          }
        }
        if (CellUtil.matchingQualifier(c, CLEANED) && c.getValueLength() > 0) {
          cleaned = true; // any version: written only after the deletes
        }
      }
      return new RawRecord(present ? Optional.of(number) : Optional.empty(), !stateLive || cleaned);
    }

    /**
     * The key number the record holds (0 for an 8-byte id prefix), or empty when the metadata
     * table has no record of it: the dataset was truncated, or dropped and created again, or the
     * record passed the history horizon. A record a transaction in progress writes counts as there
     * (only its own begin writes one).
     */
    public Optional<Long> keyNumber() {
      return keyNumber;
    }

    /**
     * Whether the record says the snapshot's rows may be gone: the record is gone (purged), its
     * newest {@code state} is a delete (the horizon deletes only cleaned records), or any version
     * of {@code cleaned} has a value. Right with uncommitted and failed versions too: a
     * {@code cleaned} value is only ever written after the snapshot's rows were deleted, and a
     * record is only ever deleted once it is cleaned. For a reader's check after its rows (see
     * {@code LockTable.cleaningState}), which must not need Tephra (a MapReduce task has only
     * HBase).
     */
    public boolean goneOrCleaned() {
      return goneOrCleaned;
    }
  }
}
