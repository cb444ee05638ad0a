package io.snapds.hive;

/**
 * How a Hive value is stored in a cell (or the row key). Chosen per column in the mapping with a
 * suffix: none or {@code #s} for {@link #TEXT}, {@code #b} for {@link #BINARY}.
 */
public enum ValueEncoding {
  /**
   * The value's text form in UTF-8: {@code 42}, {@code 3.5}, {@code true}, {@code 2026-11-30 08:00:00}
   * (Hive's timestamp and date formats). Cells whose text does not parse read as NULL. A
   * {@code binary} column is always its raw bytes.
   */
  TEXT,
  /**
   * Fixed-width big-endian bytes as HBase's {@code Bytes.toBytes} writes them: 1 byte for
   * tinyint and boolean, 2 for smallint, 4 for int and float, 8 for bigint and double, 8 for a
   * timestamp (milliseconds since the epoch, UTC) and 4 for a date (days since the epoch).
   * Strings, decimals and binaries are the same as in {@link #TEXT}. A cell of the wrong length
   * reads as NULL.
   */
  BINARY
}
