package io.snapds.hive;

import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.write.SnapshotTaskWriter;
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
 * {@link SnapshotMetaHook#preInsertTable}): each task finds that snapshot by the query's run id and
 * writes through the write protocol's {@link SnapshotTaskWriter}, which checks before each batch
 * that the snapshot is still BUILDING, so an attempt that outlives its query's publish (or abort)
 * sends nothing more into it. Rows stay invisible until the query's driver publishes the snapshot.
 */
public final class HiveSnapshotOutputFormat implements HiveOutputFormat<ImmutableBytesWritable, SnapshotRowWritable> {
  private static final long WRITE_BUFFER_BYTES = 2L << 20;

  @Override
  public FileSinkOperator.RecordWriter getHiveRecordWriter(JobConf job, Path finalOutPath,
      Class<? extends Writable> valueClass, boolean isCompressed, Properties tableProperties, Progressable progress)
      throws IOException {
    String dataset = job.get(HiveTableProperties.DATASET, tableProperties.getProperty(HiveTableProperties.DATASET));
    DatasetId id = DatasetId.parse(dataset);
    SnapshotDataset ds = DatasetConnections.datasets(job).open(id);
    try {
      SnapshotId building = PendingInserts.buildingSnapshot(ds, PendingInserts.queryId(job));
      return new Writer(ds, SnapshotTaskWriter.open(ds, building, WRITE_BUFFER_BYTES));
    } catch (SnapshotDatasetException e) {
      ds.close();
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

  /** One task's writer; holds the dataset open for the per-batch checks, and closes it. */
  private static final class Writer implements FileSinkOperator.RecordWriter {
    private final SnapshotDataset dataset;
    private final SnapshotTaskWriter rows;

    Writer(SnapshotDataset dataset, SnapshotTaskWriter rows) {
      this.dataset = dataset;
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
        if (abort) {
          rows.discard();
        } else {
          rows.close(); // sends the rest of the batch if the snapshot is still BUILDING
        }
      } catch (SnapshotDatasetException e) {
        throw new IOException("sending the last rows into snapshot " + rows.snapshotId() + " failed: "
            + e.getMessage(), e);
      } finally {
        dataset.close();
      }
    }
  }
}
