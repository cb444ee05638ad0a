package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What to scan within one snapshot: a key range or prefix, which columns, how many rows.
 * Immutable; start from {@link #all()}.
 */
public final class RowScan {
  private static final RowScan ALL = new RowScan(null, null, List.of(), 0, 500);

  private final byte[] startKey;
  private final byte[] stopKey;
  private final List<Column> columns;
  private final long limit;
  private final int caching;

  private RowScan(byte[] startKey, byte[] stopKey, List<Column> columns, long limit, int caching) {
    this.startKey = startKey;
    this.stopKey = stopKey;
    this.columns = List.copyOf(columns);
    this.limit = limit;
    this.caching = caching;
  }

  /** Every row of the snapshot, every column. */
  public static RowScan all() {
    return ALL;
  }

  /** Rows from {@code startKey} (inclusive) to {@code stopKey} (exclusive); null means unbounded. */
  public RowScan range(byte[] startKey, byte[] stopKey) {
    checkArgument(startKey == null || startKey.length > 0, "startKey must not be empty (use null)");
    checkArgument(stopKey == null || stopKey.length > 0, "stopKey must not be empty (use null)");
    checkArgument(startKey == null || stopKey == null || Bytes.compareTo(startKey, stopKey) <= 0,
        "startKey %s is after stopKey %s", bin(startKey), bin(stopKey));
    return new RowScan(copy(startKey), copy(stopKey), columns, limit, caching);
  }

  /** Rows whose key starts with {@code prefix}. */
  public RowScan prefix(byte[] prefix) {
    checkNotNull(prefix, "prefix must not be null");
    checkArgument(prefix.length > 0, "prefix must not be empty");
    return new RowScan(prefix.clone(), stopForPrefix(prefix), columns, limit, caching);
  }

  /** Only this family (every qualifier in it). */
  public RowScan family(String family) {
    return withColumn(new Column(Bytes.toBytes(family), null));
  }

  /** Only this column; call again to add more. */
  public RowScan column(String family, String qualifier) {
    return withColumn(new Column(Bytes.toBytes(family), Bytes.toBytes(qualifier)));
  }

  public RowScan column(byte[] family, byte[] qualifier) {
    return withColumn(new Column(family.clone(), qualifier.clone()));
  }

  /** At most {@code limit} rows; 0 means no limit. */
  public RowScan limit(long limit) {
    checkArgument(limit >= 0, "limit must be >= 0, got %s", limit);
    return new RowScan(startKey, stopKey, columns, limit, caching);
  }

  /** Rows fetched per round trip to a region server. */
  public RowScan caching(int caching) {
    checkArgument(caching >= 1, "caching must be >= 1, got %s", caching);
    return new RowScan(startKey, stopKey, columns, limit, caching);
  }

  public Optional<byte[]> startKey() {
    return Optional.ofNullable(copy(startKey));
  }

  public Optional<byte[]> stopKey() {
    return Optional.ofNullable(copy(stopKey));
  }

  public List<Column> columns() {
    return columns;
  }

  public long limit() {
    return limit;
  }

  public int caching() {
    return caching;
  }

  private RowScan withColumn(Column column) {
    List<Column> cols = new ArrayList<>(columns);
    cols.add(column);
    return new RowScan(startKey, stopKey, cols, limit, caching);
  }

  private static byte[] stopForPrefix(byte[] prefix) {
    byte[] stop = prefix.clone();
    for (int i = stop.length - 1; i >= 0; i--) {
      if (stop[i] != (byte) 0xFF) {
        stop[i]++;
        return java.util.Arrays.copyOf(stop, i + 1);
      }
    }
    return null; // all 0xFF: no upper bound
  }

  private static byte[] copy(byte[] b) {
    return b == null ? null : b.clone();
  }

  private static String bin(byte[] b) {
    return b == null ? "null" : Bytes.toStringBinary(b);
  }

  @Override
  public String toString() {
    return "RowScan{start=" + bin(startKey) + ", stop=" + bin(stopKey) + ", columns=" + columns
        + ", limit=" + limit + "}";
  }

  /** A family, or one qualifier in it when {@code qualifier} is non-null. */
  public record Column(byte[] family, byte[] qualifier) {
    public Column {
      checkNotNull(family, "family must not be null");
    }

    @Override
    public String toString() {
      return Bytes.toString(family) + (qualifier == null ? "" : ":" + Bytes.toStringBinary(qualifier));
    }
  }
}
