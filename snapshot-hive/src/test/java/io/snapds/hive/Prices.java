package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A test dataset of prices and its Hive table. Snapshot "generation" g has rows sku000..sku(n-1)
 * with values that depend on g, so two snapshots never look alike. Expected query results are
 * computed here from rows read through the Java API, decoded independently of the SerDe.
 */
final class Prices {
  static final String COLUMNS = "sku string, price double, qty int, name string, active boolean, ts timestamp, raw binary";
  static final String MAPPING = ":key,d:price,d:qty#b,d:name,d:active,d:ts,d:raw";

  final DatasetId id;
  final SnapshotDataset dataset;
  final String table;

  private Prices(DatasetId id, SnapshotDataset dataset, String table) {
    this.id = id;
    this.dataset = dataset;
    this.table = table;
  }

  /** A new dataset (no snapshot yet) and a Hive table over it. */
  static Prices create(EmbeddedHive hive, String prefix) throws Exception {
    return create(hive, MiniCluster.get().datasets(), prefix);
  }

  /** The same, with the dataset created (and later written) through {@code datasets}' Tephra client. */
  static Prices create(EmbeddedHive hive, SnapshotDatasets datasets, String prefix) throws Exception {
    DatasetId id = MiniCluster.uniqueDataset(prefix);
    SnapshotDataset ds = datasets.create(id, DatasetProperties.builder().families("d").build());
    String table = id.name().toLowerCase();
    hive.sql("CREATE EXTERNAL TABLE " + table + " (" + COLUMNS + ") STORED BY '" + SnapshotStorageHandler.class.getName()
        + "' TBLPROPERTIES ('snapds.dataset'='" + id + "', 'snapds.columns.mapping'='" + MAPPING + "')");
    return new Prices(id, ds, table);
  }

  static String sku(int i) {
    return String.format("sku%03d", i);
  }

  /** Publishes generation {@code g} with {@code n} rows. */
  SnapshotInfo publish(int g, int n) {
    try (SnapshotWriter w = dataset.newSnapshot().begin()) {
      for (int i = 0; i < n; i++) {
        byte[] k = Bytes.toBytes(sku(i));
        w.put(k, "d", "price", Bytes.toBytes(Double.toString(g * 100 + i * 0.5)));
        w.put(k, "d", "qty", Bytes.toBytes(i % 7 + g));
        if (i % 10 != 9) { // every tenth row has no name: NULL in Hive
          w.put(k, "d", "name", Bytes.toBytes("item " + i + " g" + g));
        }
        w.put(k, "d", "active", Bytes.toBytes(Boolean.toString(i % 2 == 0)));
        w.put(k, "d", "ts", Bytes.toBytes(String.format("2026-11-%02d 10:00:00", i % 28 + 1)));
        w.put(k, "d", "raw", Bytes.toBytes("r" + i));
      }
      return w.commit();
    }
  }

  /** The rows of a snapshot through the Java API, as Hive prints them (tab-separated, NULL). */
  List<String> rows(SnapshotId snapshot, RowScan scan) {
    List<String> out = new ArrayList<>();
    try (RowScanner rows = dataset.readSnapshot(snapshot).scan(scan)) {
      for (SnapshotRow r : rows) {
        out.add(format(r));
      }
    }
    return out;
  }

  static String format(SnapshotRow r) {
    return String.join("\t", Bytes.toString(r.key()),
        Double.toString(Double.parseDouble(Bytes.toString(r.value("d", "price")))),
        Integer.toString(Bytes.toInt(r.value("d", "qty"))),
        r.value("d", "name") == null ? "NULL" : Bytes.toString(r.value("d", "name")),
        Bytes.toString(r.value("d", "active")),
        Bytes.toString(r.value("d", "ts")),
        Bytes.toString(r.value("d", "raw")));
  }

  /** Column {@code i} (0-based, in {@link #COLUMNS} order) of a formatted row. */
  static String column(String row, int i) {
    return row.split("\t", -1)[i];
  }
}
