package io.snapds.it;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.hadoop.hbase.util.Bytes;

/** Writing and verifying test snapshots whose summary records their own row count and checksum. */
final class Fixtures {
  private Fixtures() {}

  /** A new dataset that retains only its current snapshot, so each publish expires the one before. */
  static SnapshotDataset retainingOne(MiniCluster cluster, String name) {
    return cluster.datasets().create(MiniCluster.uniqueDataset(name),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
  }

  static byte[] key(int i) {
    return Bytes.toBytes(String.format("k%06d", i));
  }

  /** Writes {@code rows} rows whose values carry {@code label}, records count and checksum, commits. */
  static SnapshotInfo writeAndCommit(SnapshotWriter w, String label, int rows) {
    long checksum = 0;
    for (int i = 0; i < rows; i++) {
      byte[] value = Bytes.toBytes(label + ":" + i);
      w.put(key(i), "d", "v", value);
      checksum += crc(key(i), value);
    }
    w.summary("label", label).summary("checksum", Long.toString(checksum));
    return w.commit();
  }

  static long crc(byte[] key, byte[] value) {
    CRC32 crc = new CRC32();
    crc.update(key);
    crc.update(value);
    return crc.getValue();
  }

  /** What a scan of a snapshot saw: rows, checksum, and the labels in its values. */
  record Observation(long rows, long checksum, List<String> labels) {
    boolean matches(SnapshotInfo info) {
      return rows == info.rowCount() && Long.toString(checksum).equals(info.summary().get("checksum"))
          && labels.stream().allMatch(l -> l.equals(info.summary().get("label")));
    }
  }

  static Observation observe(SnapshotReader reader) {
    long rows = 0;
    long checksum = 0;
    List<String> labels = new ArrayList<>();
    try (RowScanner scanner = reader.scan(RowScan.all())) {
      for (SnapshotRow r : scanner) {
        byte[] v = r.value("d", "v");
        rows++;
        checksum += crc(r.key(), v);
        String label = Bytes.toString(v).substring(0, Bytes.toString(v).indexOf(':'));
        if (!labels.contains(label)) {
          labels.add(label);
        }
      }
    }
    return new Observation(rows, checksum, labels);
  }

  /** Splits the dataset's data table at {@code point} (a full row key), waiting for the split. */
  static void split(MiniCluster cluster, SnapshotDataset ds, byte[] point) throws Exception {
    try (org.apache.hadoop.hbase.client.RegionLocator locator = cluster.connection().getRegionLocator(ds.id().dataTable());
        org.apache.hadoop.hbase.client.Admin admin = cluster.connection().getAdmin()) {
      admin.splitRegionAsync(locator.getRegionLocation(point, true).getRegion().getRegionName(), point)
          .get(2, java.util.concurrent.TimeUnit.MINUTES);
    }
  }
}
