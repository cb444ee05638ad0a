package io.snapds.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.tephra.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MiniClusterExtension.class)
class DemoTest {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void demoSharesBuildsAndItsReaderSeesOnlyCompleteSnapshots() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("demo");
    StringWriter out = new StringWriter();
    List<String> keys = List.of("2026-11-30T10:00/11:00", "2026-11-30T11:00/12:00", "2026-11-30T12:00/13:00");
    DemoResult result = new Demo(cluster.datasets(), new PrintWriter(out, true))
        .run(new Demo.Settings(id, 9, keys, 300));

    assertTrue(result.ok(), out.toString());
    assertTrue(result.reads() > 0);
    assertTrue(out.toString().contains("3 built, 6 reused, 0 failed"), out.toString());
    assertTrue(out.toString().contains("all consistent"), out.toString());
    try (SnapshotDataset ds = cluster.datasets().open(id)) {
      for (String key : keys) {
        assertEquals(1, ds.snapshots().stream().filter(s -> s.sourceKey().equals(Optional.of(key))).count(), key);
      }
      assertEquals(2, ds.retainedSnapshots().size(), "retention kept the newest 2");
    }
  }

  @Test
  void readerReportsASnapshotWhoseRowsDoNotMatchItsSummary() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("torn");
    try (SnapshotDataset ds = cluster.datasets().create(id, DatasetProperties.defaults())) {
      RowChecksum checksum = new RowChecksum();
      try (SnapshotWriter w = ds.newSnapshot().begin()) {
        for (int i = 0; i < 10; i++) {
          w.put(DemoData.row("k", i));
          if (i < 9) {
            checksum.add(DemoData.row("k", i)); // the summary misses a row, as a torn read would
          }
        }
        w.summary("checksum", checksum.value());
        w.commit();
      }
      ConsistencyReader reader = new ConsistencyReader(cluster.datasets(), id);
      Optional<SnapshotId> read = reader.readOnce(ds, new TransactionContext(cluster.txClient(), ds));
      assertEquals(ds.currentSnapshot().map(s -> s.id()), read);
      assertEquals(1, reader.torn().size());
      assertTrue(reader.torn().get(0).contains("read 10 rows, checksum"), reader.torn().get(0));
    }
  }

  @Test
  void sharedBuildRulesAreChecked() {
    SnapshotId a = SnapshotId.of(1);
    SnapshotId b = SnapshotId.of(2);
    List<JobOutcome> twice = List.of(new JobOutcome(1, "k", true, a, Duration.ZERO, null),
        new JobOutcome(2, "k", true, b, Duration.ZERO, null));
    assertEquals(List.of("source key k was built 2 times", "jobs of source key k got 2 different snapshots"),
        Demo.checkSharedBuilds(twice));
    assertEquals(List.of(), Demo.checkSharedBuilds(List.of(new JobOutcome(1, "k", true, a, Duration.ZERO, null),
        new JobOutcome(2, "k", false, a, Duration.ZERO, null))));
  }
}
