package io.snapds.dataset.store;

import io.snapds.dataset.SnapshotId;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The kinds of rows of the metadata table (format 2), in one place: each transactional row starts
 * with a one-byte kind, and each kind belongs to one row group, the class that owns its key and
 * columns (a new kind of row takes a free byte here and a class of its own):
 * <pre>
 *   s                                   the pointer row: version, current, counters,  {@link PointerRow}
 *                                       the mark of a truncate in progress             {@link Truncation}
 *   n + id(8)                           one record per snapshot                       {@link SnapshotRows}
 *   c, b, g, d + id(8)                  indexes: committed (retained), BUILDING,      {@link SnapshotIndex}
 *                                       awaiting cleanup, cleaned (until the horizon)
 *   a + id(8)                           index: STAGED, waiting for an audit            {@link SnapshotIndex}
 *   t + tag, r + runId, k + sourceKey   tag, run-id and source-key indexes            {@link NameIndex}
 *   h + millis(8) + version(8) + i(2)   history of the current pointer               {@link HistoryRows}
 *   f + lockName                        highest fencing token seen per lock           {@link FenceRows}
 *   z + writePointer(8) + row           rows deleted by that transaction, to purge    {@link ViewRows}
 *   m + schemaId(4)                     a dataset schema                              {@link SchemaRows}
 *   e + sequence(8)                     outbox: one event per change (#13)            {@link OutboxRows}
 *   o + name                            delivered position of a relay or consumer     {@link PositionRows}
 *   q + id(8)                           cleanup progress of a snapshot (#12)          {@link CleanupProgressRows}
 * </pre>
 * What lies past the history horizon goes ({@link Horizon}); a truncate empties the groups about
 * snapshots ({@link Truncation}). The non-transactional
 * {@link #PROPERTIES_ROW} holds the dataset properties (see {@link PropertiesCodec}). Every row is
 * in the one family {@link #FAMILY}.
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
  static final byte STAGED = 'a';
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
  /** The column of a row that only marks presence (index and purge rows), and its value. */
  static final byte[] MARK = Bytes.toBytes("x");
  static final byte[] PRESENT = {1};

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
}
