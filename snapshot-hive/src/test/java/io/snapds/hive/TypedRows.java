package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.testing.MiniCluster;
import java.util.List;
import java.util.Map;

/** Datasets with a schema for the Hive tests, written through the core's row codec (the bytes every adapter writes). */
final class TypedRows {
  private TypedRows() {}

  static SnapshotDataset create(DatasetId id, String schema) {
    MiniCluster.get().datasets().create(id, DatasetProperties.defaults());
    SnapshotDataset ds = MiniCluster.get().datasets().open(id);
    ds.setSchema(Schema.parse(schema));
    return ds;
  }

  /** Publishes a snapshot of these rows in the dataset's current schema. */
  static SnapshotInfo publish(SnapshotDataset ds, List<? extends Map<String, ?>> rows) {
    RowCodec codec = new RowCodec(ds.schema().orElseThrow(), ds.properties().defaultFamily());
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      rows.forEach(r -> w.put(codec.encode(r)));
      return w.commit();
    }
  }

  static String createTable(EmbeddedHive hive, DatasetId id, String table, String extraProperties) throws Exception {
    hive.sql("CREATE EXTERNAL TABLE " + table + " STORED BY '" + SnapshotStorageHandler.class.getName()
        + "' TBLPROPERTIES ('snapds.dataset'='" + id + "'" + extraProperties + ")");
    return table;
  }
}
