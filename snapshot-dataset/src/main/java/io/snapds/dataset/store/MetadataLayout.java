package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotId;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The row keys of the metadata table (format 2), in one place. Transactional rows, each under a
 * one-byte kind:
 * <pre>
 *   s                                   the pointer row: version, current, history counters, kno =
 *                                       the last key number given to a snapshot (format 3)
 *   n + id(8)                           one record per snapshot (see {@link MetadataCodec})
 *   c + id(8)                           index: committed (retained) snapshots
 *   b + id(8)                           index: snapshots BUILDING
 *   g + id(8)                           index: expired/aborted snapshots awaiting cleanup
 *   d + id(8)                           index: cleaned snapshots, until the horizon drops them
 *   t + tag                             tag to snapshot id
 *   h + millis(8) + version(8) + i(2)   history of the current pointer, in commit order
 *   r + runId, k + sourceKey            run-id and source-key indexes
 *   f + lockName                        highest fencing token seen per lock
 *   z + writePointer(8) + row           rows deleted by that transaction, to purge physically
 *   m + schemaId(4)                     a dataset schema: its text form with ids, the last field id
 *   e + sequence(8)                     outbox: one event (JSON, {@link EventCodec}) per change; pointer
 *                                       row column eseq = last sequence, column dropped = the
 *                                       sequence of the DROPPED event of a dataset being dropped (#13);
 *                                       pointer row column trunc = the truncate in progress (#36)
 *   o + name                            delivered position of a relay or consumer: column seq = the
 *                                       sequence of the newest event it acknowledged (#13)
 *   q + id(8)                           cleanup progress of a snapshot being cleaned: column v = the
 *                                       user-key ranges deleted and the rows ({@link CleanupProgress});
 *                                       removed when the snapshot is recorded cleaned (#12)
 * </pre>
 * The non-transactional {@link #PROPERTIES_ROW} holds the dataset properties (see
 * {@link PropertiesCodec}). Every row is in the one family {@link #FAMILY}.
 */
public final class MetadataLayout {
  /** The metadata table's one family; HBase keeps every version (visibility is decided on the client). */
  public static final byte[] FAMILY = Bytes.toBytes("m");
  /** The row of the dataset properties, written without a transaction. */
  public static final byte[] PROPERTIES_ROW = Bytes.toBytes("p");

  static final byte STATE = 's';
  static final byte SNAPSHOT = 'n';
  static final byte COMMITTED = 'c';
  static final byte BUILDING = 'b';
  static final byte GARBAGE = 'g';
  static final byte CLEANED = 'd';
  static final byte TAG = 't';
  static final byte HISTORY = 'h';
  static final byte RUN = 'r';
  static final byte SOURCE = 'k';
  static final byte FENCE = 'f';
  static final byte PURGE = 'z';
  static final byte SCHEMA = 'm';
  static final byte EVENTS = 'e';
  static final byte POSITION = 'o';
  static final byte CLEANUP_PROGRESS = 'q';
  static final byte[] STATE_ROW = {STATE};

  static final byte[] VERSION = Bytes.toBytes("version");
  static final byte[] CURRENT = Bytes.toBytes("current");
  static final byte[] HISTORY_COUNT = Bytes.toBytes("hcount");
  static final byte[] CLEANED_COUNT = Bytes.toBytes("dcount");
  static final byte[] LAST_AT = Bytes.toBytes("last.at");
  static final byte[] HORIZON_AT = Bytes.toBytes("horizon.at");
  static final byte[] HORIZON_ID = Bytes.toBytes("horizon.id");
  static final byte[] ID = Bytes.toBytes("id");
  static final byte[] REASON = Bytes.toBytes("reason");
  static final byte[] TOKEN = Bytes.toBytes("token");
  static final byte[] MARK = Bytes.toBytes("x");
  /** Pointer row: the current schema id; schema row: the schema's text form with ids. */
  static final byte[] SCHEMA_COLUMN = Bytes.toBytes("schema");
  /** Schema row: the highest field id given up to that schema. */
  static final byte[] LAST_FIELD_ID = Bytes.toBytes("lastfid");
  static final byte[] PRESENT = {1};
  static final byte[] EVENT_SEQ = Bytes.toBytes("eseq");
  /** Pointer row: the last key number given ({@link io.snapds.dataset.SnapshotKeys}, format 3). */
  static final byte[] KEY_NUMBERS = Bytes.toBytes("kno");
  /**
   * Pointer row: the write pointer of the transaction that reset the metadata for a truncate, until
   * the truncate has emptied the data table; no snapshot begins meanwhile (#36).
   */
  static final byte[] TRUNCATING = Bytes.toBytes("trunc");
  /** Pointer row: the sequence of the DROPPED event, once the dataset is being dropped (#13). */
  static final byte[] DROPPED = Bytes.toBytes("dropped");
  static final byte[] EVENT = Bytes.toBytes("v");
  /** Position row: the sequence delivered. */
  static final byte[] POSITION_SEQ = Bytes.toBytes("seq");
  /** Cleanup progress row: the encoded {@link CleanupProgress}. */
  static final byte[] PROGRESS = Bytes.toBytes("v");

  private MetadataLayout() {}

  static byte[] key(byte kind, SnapshotId id) {
    return Bytes.add(new byte[] {kind}, id.toBytes());
  }

  static byte[] key(byte kind, String name) {
    return Bytes.add(new byte[] {kind}, Bytes.toBytes(name));
  }

  static byte[] key(byte kind, int id) {
    return Bytes.add(new byte[] {kind}, Bytes.toBytes(id));
  }

  static byte[] kindStart(byte kind) {
    return new byte[] {kind};
  }

  static byte[] kindStop(byte kind) {
    return new byte[] {(byte) (kind + 1)};
  }

  static byte[] historyKey(long millis, long version, int i) {
    return Bytes.add(Bytes.add(new byte[] {HISTORY}, Bytes.toBytes(millis)), Bytes.toBytes(version),
        Bytes.toBytes((short) i));
  }

  static byte[] eventKey(long sequence) {
    return Bytes.add(new byte[] {EVENTS}, Bytes.toBytes(sequence));
  }

  static byte[] purgeKey(long writePointer, byte[] row) {
    return Bytes.add(new byte[] {PURGE}, Bytes.toBytes(writePointer), row);
  }
}
