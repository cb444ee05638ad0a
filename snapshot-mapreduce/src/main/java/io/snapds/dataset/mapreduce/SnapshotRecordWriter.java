package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotRowWriter;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's writer into the snapshot its job began: rows go under the snapshot's prefix, keyed by
 * the user's row key, so an attempt that runs again overwrites what an earlier one wrote. When the
 * job's run id was published before, it discards every row. Closing records the attempt's row and
 * byte counts ({@link TaskCommitRecords}), which become its task's when the attempt commits.
 */
final class SnapshotRecordWriter<K> extends RecordWriter<K, SnapshotRowWritable> {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotRecordWriter.class);

  private final JobDatasets datasets;
  private final DatasetId dataset;
  private final SnapshotRowWriter rows;
  private final boolean recordCounts;
  private long discarded;

  private SnapshotRecordWriter(JobDatasets datasets, DatasetId dataset, SnapshotRowWriter rows,
      boolean recordCounts) {
    this.datasets = datasets;
    this.dataset = dataset;
    this.rows = rows;
    this.recordCounts = recordCounts;
  }

  /** @param recordCounts whether closing records the attempt's counts for its task to commit */
  static <K> SnapshotRecordWriter<K> open(Configuration conf, boolean recordCounts) throws IOException {
    SnapshotHandle handle = SnapshotOutputFormat.handle(conf).orElse(null);
    if (handle == null) {
      if (SnapshotOutputFormat.alreadyPublished(conf).isEmpty()) {
        throw new IllegalStateException("no snapshot was begun for this job: was it submitted with "
            + "SnapshotOutputFormat as its output format? (" + SnapshotOutputFormat.HANDLE + " is not set)");
      }
      return new SnapshotRecordWriter<>(null, null, null, false);
    }
    JobDatasets datasets = JobDatasets.open(conf);
    try {
      DatasetId dataset = SnapshotOutputFormat.dataset(conf);
      return new SnapshotRecordWriter<>(datasets, dataset, datasets.open(dataset)
          .openRowWriter(handle.snapshotId(), SnapshotOutputFormat.writeBufferBytes(conf)), recordCounts);
    } catch (RuntimeException e) {
      datasets.close();
      throw e;
    }
  }

  @Override
  public void write(K key, SnapshotRowWritable value) {
    if (rows == null) {
      discarded++;
    } else {
      rows.put(value.get());
    }
  }

  @Override
  public void close(TaskAttemptContext context) throws IOException {
    if (rows == null) {
      LOG.info("discarded {} rows: the job's run was published before", discarded);
      return;
    }
    try {
      rows.close(); // flushed: the counts below are of rows HBase has
      if (recordCounts) {
        new TaskCommitRecords(datasets.connection(), dataset, rows.snapshotId())
            .recordAttempt(context.getTaskAttemptID(), rows.rowCount(), rows.byteCount());
      }
    } finally {
      datasets.close();
    }
  }
}
