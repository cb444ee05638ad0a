package io.snapds.hive;

import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRowWriter;
import java.io.IOException;
import java.util.Properties;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.hive.ql.io.HiveOutputFormat;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordWriter;
import org.apache.hadoop.util.Progressable;

/**
 * Writes the rows of an {@code INSERT OVERWRITE} into the snapshot its query is building (begun by
 * {@link SnapshotMetaHook#preInsertTable}): each task opens a row writer on that snapshot. Rows
 * stay invisible until the query's driver publishes the snapshot.
 */
public final class HiveSnapshotOutputFormat implements HiveOutputFormat<ImmutableBytesWritable, SnapshotRowWritable> {
  private static final long WRITE_BUFFER_BYTES = 2L << 20;

  @Override
  public FileSinkOperator.RecordWriter getHiveRecordWriter(JobConf job, Path finalOutPath,
      Class<? extends Writable> valueClass, boolean isCompressed, Properties tableProperties, Progressable progress)
      throws IOException {
    String dataset = job.get(HiveTableProperties.DATASET, tableProperties.getProperty(HiveTableProperties.DATASET));
    DatasetId id = DatasetId.parse(dataset);
    try (SnapshotDataset ds = DatasetConnections.datasets(job).open(id)) {
      SnapshotId building = PendingInserts.buildingSnapshot(ds, PendingInserts.queryId(job));
      SnapshotRowWriter writer = ds.openRowWriter(building, WRITE_BUFFER_BYTES);
      return new Writer(writer);
    } catch (SnapshotDatasetException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public RecordWriter<ImmutableBytesWritable, SnapshotRowWritable> getRecordWriter(FileSystem ignored, JobConf job,
      String name, Progressable progress) {
    throw new UnsupportedOperationException("Hive writes through getHiveRecordWriter");
  }

  @Override
  public void checkOutputSpecs(FileSystem ignored, JobConf job) {
    // the dataset was checked when the table was created and when the snapshot was begun
  }

  private static final class Writer implements FileSinkOperator.RecordWriter {
    private final SnapshotRowWriter rows;

    Writer(SnapshotRowWriter rows) {
      this.rows = rows;
    }

    @Override
    public void write(Writable w) throws IOException {
      try {
        rows.put(((SnapshotRowWritable) w).get());
      } catch (SnapshotDatasetException | IllegalArgumentException e) {
        throw new IOException("writing row " + ((SnapshotRowWritable) w).get().keyAsString() + " failed: "
            + e.getMessage(), e);
      }
    }

    @Override
    public void close(boolean abort) throws IOException {
      try {
        if (!abort) {
          rows.flush();
        }
      } catch (SnapshotDatasetException e) {
        throw new IOException("flushing rows failed: " + e.getMessage(), e);
      } finally {
        rows.close();
      }
    }
  }
}
