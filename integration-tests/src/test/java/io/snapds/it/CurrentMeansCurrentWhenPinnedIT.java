package io.snapds.it;

import static io.snapds.it.Fixtures.writeAndCommit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.mapreduce.SnapshotSplit;
import io.snapds.dataset.mapreduce.SnapshotSplitReader;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 8: a job that asks for the current snapshot gets the one current at the moment
 * its pin holds, however often publishes (with retention) land while it submits; a job that
 * names an expired snapshot still fails.
 */
@ExtendWith(MiniClusterExtension.class)
class CurrentMeansCurrentWhenPinnedIT {
  private static final int SUBMISSIONS = 25;
  private final MiniCluster cluster = MiniCluster.get();

  private Configuration jobConf(SnapshotDataset ds, SnapshotSelector selector) {
    Configuration conf = new Configuration(cluster.configuration());
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    SnapshotInputFormatImpl.setInput(conf, ds.id(), selector);
    return conf;
  }

  @Test
  void everySubmissionPinsACurrentSnapshotWhilePublishesLand() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("steady"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    writeAndCommit(ds.newSnapshot().begin(), "p0", 3);
    AtomicBoolean stop = new AtomicBoolean();
    SnapshotDataset writer = cluster.datasets().open(ds.id());
    CompletableFuture<Integer> publishing = CompletableFuture.supplyAsync(() -> {
      int n = 0;
      while (!stop.get()) {
        writeAndCommit(writer.newSnapshot().begin(), "p" + ++n, 3);
      }
      return n;
    });
    List<String> failures = new ArrayList<>();
    try {
      for (int i = 0; i < SUBMISSIONS; i++) {
        Configuration conf = jobConf(ds, SnapshotSelector.current());
        try {
          List<SnapshotSplit> splits = SnapshotInputFormatImpl.getSplits(conf);
          SnapshotId pinned = SnapshotInputFormatImpl.pinnedSnapshot(conf).orElseThrow();
          ds.cleanup(); // the pin keeps it, even once a publish expired it
          long rows = 0;
          for (SnapshotSplit split : splits) {
            try (SnapshotSplitReader reader = SnapshotSplitReader.open(split, conf)) {
              while (reader.next()) {
                rows++;
              }
            }
          }
          if (rows != ds.snapshot(pinned).rowCount()) {
            failures.add("submission " + i + " read " + rows + " rows of " + ds.snapshot(pinned));
          }
        } catch (SnapshotNotAvailableException e) {
          failures.add("submission " + i + ": " + e.getMessage());
        } finally {
          SnapshotInputFormatImpl.releasePin(conf);
        }
      }
    } finally {
      stop.set(true);
    }
    int published = publishing.get();
    assertTrue(published > 0, "publishes landed meanwhile");
    assertEquals(List.of(), failures, "every submission of " + SUBMISSIONS + " while " + published
        + " publishes landed pinned a whole snapshot");
  }

  @Test
  void anExplicitSnapshotThatExpiredIsStillAnError() {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("explicit"),
        DatasetProperties.builder().retention(RetentionPolicy.retainLast(1)).build());
    SnapshotInfo old = writeAndCommit(ds.newSnapshot().begin(), "old", 3);
    writeAndCommit(ds.newSnapshot().begin(), "new", 3);
    Configuration conf = jobConf(ds, SnapshotSelector.snapshot(old.id()));
    SnapshotNotAvailableException e = assertThrows(SnapshotNotAvailableException.class,
        () -> SnapshotInputFormatImpl.getSplits(conf));
    assertTrue(e.getMessage().contains(old.id().toString()) && e.getMessage().contains("EXPIRED"), e.getMessage());
  }
}
