package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.write.SnapshotTaskWriter;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's writer into the snapshot its job began: the core's task side of the distributed write
 * ({@link SnapshotTaskWriter}) on the handle in the job's configuration. Rows go under the
 * snapshot's prefix, keyed by the user's row key, so an attempt that runs again overwrites what an
 * earlier one wrote; an attempt that outlives its job sends nothing into the published snapshot.
 * When the job's run id was published before, it discards every row. It counts nothing for the
 * job: the job's commit counts the rows the snapshot holds.
 */
final class SnapshotRecordWriter<K> extends RecordWriter<K, SnapshotRowWritable> {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotRecordWriter.class);

  private final JobDatasets datasets;
  private final SnapshotTaskWriter rows;
  private long discarded;

  private SnapshotRecordWriter(JobDatasets datasets, SnapshotTaskWriter rows) {
    this.datasets = datasets;
    this.rows = rows;
  }

  static <K> SnapshotRecordWriter<K> open(Configuration conf) throws IOException {
    SnapshotHandle handle = SnapshotOutputFormat.handle(conf).orElse(null);
    if (handle == null) {
      if (SnapshotOutputFormat.alreadyPublished(conf).isEmpty()) {
        throw new IllegalStateException("no snapshot was begun for this job: was it submitted with "
            + "SnapshotOutputFormat as its output format? (" + SnapshotOutputFormat.HANDLE + " is not set)");
      }
      return new SnapshotRecordWriter<>(null, null);
    }
    JobDatasets datasets = JobDatasets.open(conf);
    try {
      SnapshotDataset dataset = datasets.open(SnapshotOutputFormat.dataset(conf));
      return new SnapshotRecordWriter<>(datasets,
          SnapshotTaskWriter.open(dataset, handle, SnapshotOutputFormat.writeBufferBytes(conf)));
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
    rows.put(value.get());
  }

  @Override
  public void close(TaskAttemptContext context) throws IOException {
    if (rows == null) {
      LOG.info("discarded {} rows: the job's run was published before", discarded);
      return;
    }
    try {
      rows.close();
      LOG.info("sent {} rows ({} bytes) into snapshot {}", rows.rowsSent(), rows.bytesSent(), rows.snapshotId());
    } finally {
      datasets.close();
    }
  }
}
