package io.snapds.cli.demo;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SharedBuildResult;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotRow;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * One pipeline job: with its own dataset instance, asks for the snapshot of its source key
 * through a shared build. The first job of a key builds it (recording row count and checksum in
 * the summary); the others wait on the key's lock and reuse it. All jobs of a key start together,
 * after a delay that grows with the key, so that publishes spread over the reader's reads.
 */
final class DemoJob implements Callable<JobOutcome> {
  private final int job;
  private final SnapshotDatasets datasets;
  private final DatasetId dataset;
  private final String sourceKey;
  private final int rows;
  private final CountDownLatch start;
  private final Duration delay;

  DemoJob(int job, SnapshotDatasets datasets, DatasetId dataset, String sourceKey, int rows, CountDownLatch start,
      Duration delay) {
    this.job = job;
    this.datasets = datasets;
    this.dataset = dataset;
    this.sourceKey = sourceKey;
    this.rows = rows;
    this.start = start;
    this.delay = delay;
  }

  @Override
  public JobOutcome call() throws InterruptedException {
    start.await();
    Thread.sleep(delay.toMillis()); // later slices arrive a little later, as they would in a pipeline
    long t0 = System.nanoTime();
    try (SnapshotDataset ds = datasets.open(dataset)) {
      SharedBuildResult result = ds.sharedBuild(sourceKey, writer -> {
        RowChecksum checksum = new RowChecksum();
        for (int i = 0; i < rows; i++) {
          SnapshotRow row = DemoData.row(sourceKey, i);
          writer.put(row);
          checksum.add(row);
        }
        writer.summary("checksum", checksum.value());
        writer.summary("rows", Long.toString(checksum.rows()));
        writer.summary("built.by", "job " + job);
      });
      return new JobOutcome(job, sourceKey, result.built(), result.snapshotId(), since(t0), null);
    } catch (RuntimeException e) {
      return new JobOutcome(job, sourceKey, false, null, since(t0), e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static Duration since(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0);
  }
}
