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
}
