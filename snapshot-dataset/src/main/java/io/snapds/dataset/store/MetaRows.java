package io.snapds.dataset.store;

import java.util.List;
import java.util.NavigableMap;
import org.apache.tephra.Transaction;

/**
 * The rows of a metadata table as one transaction sees them: what {@link LayoutView} needs from
 * storage. Reads return only visible, non-deleted columns and never see this transaction's own
 * pending writes (the view keeps those). Writes are buffered until the store commits.
 */
interface MetaRows {
  /** One visible row: key and (qualifier to value). */
  record Row(byte[] key, NavigableMap<byte[], byte[]> columns) {}

  Transaction transaction();

  /** The visible columns of {@code row}; empty when it has none. */
  NavigableMap<byte[], byte[]> get(byte[] row);

  /** The visible columns of each of {@code rows}, in order, in one round trip. */
  List<NavigableMap<byte[], byte[]>> getAll(List<byte[]> rows);

  /**
   * Visible rows with keys in [{@code start}, {@code stop}), ascending, or descending from just
   * below {@code stop} when {@code reverse}; at most {@code limit}.
   */
  List<Row> scan(byte[] start, byte[] stop, boolean reverse, int limit);

  void put(byte[] row, byte[] qualifier, byte[] value);

  /** A transactional delete: hides the column from transactions that see this one. */
  void delete(byte[] row, byte[] qualifier);

  /**
   * Physically removes every version of {@code row} written at or below {@code upTo} when this
   * transaction's writes are sent: only for rows whose deletion every transaction already sees.
   */
  void purge(byte[] row, long upTo);

  /**
   * Versions written at or below this write pointer are visible to every transaction in progress
   * and every future one; negative when nothing is known to be.
   */
  long pruneBound();
}
