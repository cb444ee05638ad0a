package io.snapds.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import io.snapds.events.example.TableMirror;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 40, events: a consumer that keeps a mirror of the current snapshot from the changes alone
 * ({@link ChangesOnPublish}) holds exactly the rows of the event's snapshot after every publish and
 * rollback, resyncs when the previous snapshot was cleaned, and ends the same when an event is
 * handled twice.
 */
@ExtendWith(MiniClusterExtension.class)
class ChangesOnPublishIT {
  private static SnapshotInfo publish(SnapshotDataset ds, int from, int to, String label) {
    try (SnapshotWriter w = ds.newSnapshot().begin()) {
      for (int i = from; i < to; i++) {
        w.put(Bytes.toBytes(String.format("k%04d", i)), "d", "v", Bytes.toBytes(label + (i % 7 == 0 ? "" : "-" + i)));
      }
      return w.commit();
    }
  }

  private static TreeMap<String, String> rows(SnapshotDataset ds, SnapshotId id) {
    TreeMap<String, String> out = new TreeMap<>();
    try (RowScanner scanner = ds.readSnapshot(id).scan(RowScan.all())) {
      for (SnapshotRow r : scanner) {
        out.put(r.keyAsString(), Bytes.toString(r.value("d", "v")));
      }
    }
    return out;
  }

  @Test
  void aMirrorFedOnlyTheChangesEqualsEachCurrentSnapshot() throws Exception {
    SnapshotDatasets datasets = MiniCluster.get().datasets();
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("changes"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(2)).build());
    TreeMap<String, String> mirror = new TreeMap<>();
    List<String> calls = new ArrayList<>();
    List<String> mismatches = new ArrayList<>();
    List<DatasetEvent> handled = new ArrayList<>();
    ChangeHandler apply = (event, previous, current, changes) -> {
      if (previous.isEmpty()) {
        mirror.clear();
      }
      int n = 0;
      for (RowChange c : changes) {
        n++;
        if (c.kind() == RowChange.Kind.REMOVED) {
          mirror.remove(c.keyAsString());
        } else {
          mirror.put(c.keyAsString(), Bytes.toString(c.after().orElseThrow().value("d", "v")));
        }
      }
      calls.add(event.type() + " " + previous.map(SnapshotId::toString).orElse("-") + " -> " + current + " (" + n
          + ")");
      if (!mirror.equals(rows(ds, current))) {
        mismatches.add(event + ": the mirror is not the snapshot");
      }
      handled.add(event);
    };
    ChangesOnPublish handler = new ChangesOnPublish(datasets, apply);
    try (EventConsumer consumer = new EventConsumer(datasets, "mirror", handler)) {
      SnapshotInfo s1 = publish(ds, 0, 100, "a");
      consumer.pollOutbox(ds.id(), 100);
      SnapshotInfo s2 = publish(ds, 50, 150, "b");
      consumer.pollOutbox(ds.id(), 100);
      ds.rollbackTo(s1.id()).commit();
      consumer.pollOutbox(ds.id(), 100);
      // handled twice (a redelivery): the same diff again, the mirror ends the same
      handler.handle(handled.get(handled.size() - 1));
      SnapshotInfo s3 = publish(ds, 20, 80, "c");
      SnapshotInfo s4 = publish(ds, 20, 90, "c");
      ds.cleanup(); // s1 and s2 expired (retain 2) and are cleaned before the consumer sees s3's publish
      consumer.pollOutbox(ds.id(), 100);
      assertEquals(List.of(), mismatches);
      // a: 100 rows; b: keys 50-149, every value but each seventh changed; the rollback undoes it
      assertEquals(List.of("PUBLISHED - -> " + s1.id() + " (100)", "PUBLISHED " + s1.id() + " -> " + s2.id() + " (150)",
          "ROLLED_BACK " + s2.id() + " -> " + s1.id() + " (150)", "ROLLED_BACK " + s2.id() + " -> " + s1.id() + " (150)",
          "PUBLISHED - -> " + s3.id() + " (60)", "PUBLISHED " + s3.id() + " -> " + s4.id() + " (10)"), calls);
      assertEquals(rows(ds, s4.id()), mirror);
      assertEquals(Optional.of(s4.id()), ds.currentSnapshot().map(SnapshotInfo::id));
    }
  }

  /** Every cell of a plain HBase table as key -> "family:qualifier=value ...", as an application reads it. */
  private static TreeMap<String, String> tableRows(Connection connection, TableName name) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(new Scan())) {
      for (Result r : scanner) {
        StringBuilder b = new StringBuilder();
        r.getNoVersionMap().forEach((f, cols) -> cols.forEach((q, v) -> b.append(Bytes.toString(f)).append(':')
            .append(Bytes.toString(q)).append('=').append(Bytes.toString(v)).append(' ')));
        out.put(Bytes.toString(r.getRow()), b.toString());
      }
    }
    return out;
  }

  /** The same, of a snapshot. */
  private static TreeMap<String, String> snapshotRows(SnapshotDataset ds, SnapshotId id) {
    TreeMap<String, String> out = new TreeMap<>();
    try (RowScanner scanner = ds.readSnapshot(id).scan(RowScan.all())) {
      for (SnapshotRow r : scanner) {
        StringBuilder b = new StringBuilder();
        r.families().forEach((f, cols) -> cols.forEach((q, v) -> b.append(Bytes.toString(f)).append(':')
            .append(Bytes.toString(q)).append('=').append(Bytes.toString(v)).append(' ')));
        out.put(r.keyAsString(), b.toString());
      }
    }
    return out;
  }

  /**
   * The shipped example {@link TableMirror}: a plain HBase table fed only the changes holds exactly
   * the current snapshot's cells after publishes that add, remove and change rows and drop columns,
   * a row removed and added back by the next publish, a rollback, a redelivered event, an older
   * event handled late, and a resync after the previous snapshot was cleaned.
   */
  @Test
  void theTableMirrorExampleHoldsTheCurrentSnapshotsCells() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    SnapshotDatasets datasets = cluster.datasets();
    SnapshotDataset ds = datasets.create(MiniCluster.uniqueDataset("mirror"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(2)).build());
    TableName mirror = TableName.valueOf("mirror_" + ds.id().name());
    try (Admin admin = cluster.connection().getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(mirror)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d")).build());
    }
    List<String> mismatches = new ArrayList<>();
    List<DatasetEvent> handled = new ArrayList<>();
    TableMirror example = new TableMirror(cluster.connection(), mirror);
    ChangeHandler checked = (event, previous, current, changes) -> {
      example.onPublished(event, previous, current, changes);
      handled.add(event);
      if (!tableRows(cluster.connection(), mirror).equals(snapshotRows(ds, current))) {
        mismatches.add(event + ": the mirror is not snapshot " + current);
      }
    };
    ChangesOnPublish handler = new ChangesOnPublish(datasets, checked);
    try (EventConsumer consumer = new EventConsumer(datasets, "table-mirror", handler)) {
      SnapshotInfo s1 = publish(ds, 0, 60, "a");
      consumer.pollOutbox(ds.id(), 100);
      SnapshotInfo s2;
      try (SnapshotWriter w = ds.newSnapshot().begin()) { // k0000-k0029 as before, two columns; k0030+ gone
        for (int i = 0; i < 30; i++) {
          byte[] key = Bytes.toBytes(String.format("k%04d", i));
          w.put(key, "d", "v", Bytes.toBytes(i == 5 ? "changed" : "a" + (i % 7 == 0 ? "" : "-" + i)));
          if (i % 3 == 0) {
            w.put(key, "d", "w", Bytes.toBytes("extra-" + i));
          }
        }
        s2 = w.commit();
      }
      consumer.pollOutbox(ds.id(), 100);
      SnapshotInfo s3 = publish(ds, 0, 60, "a"); // the extra columns dropped, k0030+ back
      consumer.pollOutbox(ds.id(), 100);
      ds.rollbackTo(s2.id()).commit();
      consumer.pollOutbox(ds.id(), 100);
      DatasetEvent published3 = handled.get(2);
      handler.handle(handled.get(handled.size() - 1)); // the rollback again: a redelivery
      handler.handle(published3); // an older event, late: changes nothing a newer one wrote
      mismatches.removeIf(m -> m.contains("snapshot " + s3.id())); // the late event's own check compares with s3
      assertEquals(snapshotRows(ds, s2.id()), tableRows(cluster.connection(), mirror), "after the late event");
      SnapshotInfo s4 = publish(ds, 10, 40, "d");
      SnapshotInfo s5 = publish(ds, 10, 45, "e");
      ds.cleanup(); // the previous snapshots of s4's event are cleaned before it is handled: a resync
      consumer.pollOutbox(ds.id(), 100);
      assertEquals(List.of(), mismatches);
      assertEquals(snapshotRows(ds, s5.id()), tableRows(cluster.connection(), mirror));
      assertEquals(Optional.of(s5.id()), ds.currentSnapshot().map(SnapshotInfo::id));
      assertEquals(35, tableRows(cluster.connection(), mirror).size());
      assertEquals(List.of(s1.id(), s2.id(), s3.id(), s2.id(), s2.id(), s3.id(), s4.id(), s5.id()),
          handled.stream().map(e -> e.snapshot().orElseThrow()).toList());
    }
  }
}
