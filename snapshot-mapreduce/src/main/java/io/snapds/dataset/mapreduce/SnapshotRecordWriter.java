package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotRowWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's writer into the snapshot its job began: rows go under the snapshot's prefix, keyed by
 * the user's row key, so an attempt that runs again overwrites what an earlier one wrote. When the
 * job's run id was published before, it discards every row. It counts nothing for the job: the
 * job's commit counts the rows the snapshot holds.
 *
 * <p>An attempt can outlive its job: a speculative attempt that lost, or one that was killed or
 * timed out but whose process still runs. A published snapshot must not change, so the writer
 * holds rows in a batch of at most the write buffer's size and, before it sends a batch, reads
 * the snapshot's state afresh ({@link SnapshotDataset#requireBuilding}): once the job has
 * published (or aborted) it sends nothing more and fails with
 * {@link io.snapds.dataset.SnapshotNotAvailableException}. This narrows the race to a batch
 * checked before the publish and arriving after it (docs/design.md "Left open"); it costs one
 * metadata read per batch (per 4 MiB by default).
 */
final class SnapshotRecordWriter<K> extends RecordWriter<K, SnapshotRowWritable> {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotRecordWriter.class);
  /** What a cell costs in the batch beyond its bytes (a rough heap size, to bound the batch). */
  private static final int CELL_OVERHEAD = 64;

  private final JobDatasets datasets;
  private final SnapshotDataset dataset;
  private final SnapshotRowWriter rows;
  private final long batchLimit;
  private final List<SnapshotRow> batch = new ArrayList<>();
  private long batchBytes;
  private long discarded;

  private SnapshotRecordWriter(JobDatasets datasets, SnapshotDataset dataset, SnapshotRowWriter rows,
      long batchLimit) {
    this.datasets = datasets;
    this.dataset = dataset;
    this.rows = rows;
    this.batchLimit = batchLimit;
  }

  static <K> SnapshotRecordWriter<K> open(Configuration conf) throws IOException {
    SnapshotHandle handle = SnapshotOutputFormat.handle(conf).orElse(null);
    if (handle == null) {
      if (SnapshotOutputFormat.alreadyPublished(conf).isEmpty()) {
        throw new IllegalStateException("no snapshot was begun for this job: was it submitted with "
            + "SnapshotOutputFormat as its output format? (" + SnapshotOutputFormat.HANDLE + " is not set)");
      }
      return new SnapshotRecordWriter<>(null, null, null, 0);
    }
    JobDatasets datasets = JobDatasets.open(conf);
    try {
      SnapshotDataset dataset = datasets.open(SnapshotOutputFormat.dataset(conf));
      long buffer = SnapshotOutputFormat.writeBufferBytes(conf);
      return new SnapshotRecordWriter<>(datasets, dataset, dataset.openRowWriter(handle.snapshotId(), buffer), buffer);
    } catch (RuntimeException e) {
      datasets.close();
      throw e;
    }
  }

  @Override
  public void write(K key, SnapshotRowWritable value) {
    if (rows == null) {
      discarded++;
      return;
    }
    SnapshotRow row = value.get(); // immutable: safe to hold until the batch is sent
    batch.add(row);
    batchBytes += row.key().length;
    for (var cells : row.families().values()) {
      for (var cell : cells.entrySet()) {
        batchBytes += CELL_OVERHEAD + cell.getKey().length + cell.getValue().length;
      }
    }
    if (batchBytes >= batchLimit) {
      send();
    }
  }

  /** Sends the batch if the snapshot is still BUILDING; fails, sending nothing, if it is not. */
  private void send() {
    if (batch.isEmpty()) {
      return;
    }
    dataset.requireBuilding(rows.snapshotId());
    for (SnapshotRow row : batch) {
      rows.put(row);
    }
    rows.flush();
    batch.clear();
    batchBytes = 0;
  }

  @Override
  public void close(TaskAttemptContext context) throws IOException {
    if (rows == null) {
      LOG.info("discarded {} rows: the job's run was published before", discarded);
      return;
    }
    try {
      send();
      rows.close();
    } finally {
      datasets.close();
    }
  }
}
