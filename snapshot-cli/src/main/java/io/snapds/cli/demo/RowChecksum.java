package io.snapds.cli.demo;

import io.snapds.dataset.SnapshotRow;
import java.util.zip.CRC32;

/**
 * A checksum of a set of rows that does not depend on their order: the sum of a CRC-32 of each
 * row (key, then every family, qualifier and value in order). The builder records it in the
 * snapshot's summary; a reader that computes the same over what it scanned saw exactly the rows
 * that were published.
 */
final class RowChecksum {
  private long sum;
  private long rows;

  void add(SnapshotRow row) {
    CRC32 crc = new CRC32();
    crc.update(row.key());
    row.families().forEach((family, columns) -> {
      crc.update(0);
      crc.update(family);
      columns.forEach((qualifier, value) -> {
        crc.update(1);
        crc.update(qualifier);
        crc.update(2);
        crc.update(value);
      });
    });
    sum += crc.getValue();
    rows++;
  }

  long rows() {
    return rows;
  }

  String value() {
    return Long.toHexString(sum);
  }
}
