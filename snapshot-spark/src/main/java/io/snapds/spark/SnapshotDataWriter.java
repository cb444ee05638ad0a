package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.schema.RowEncoder;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.write.SnapshotTaskWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * One task attempt's writer: each row encoded with the dataset's schema ({@link InternalRowEncoder},
 * the same bytes as the {@code RowCodec} every other adapter uses) and sent through the core's {@link SnapshotTaskWriter}, which checks
 * before each batch that the snapshot is still BUILDING. A failed or losing attempt
 * ({@link #abort}) sends nothing more; what it had sent stays under keys a retry writes again.
 */
final class SnapshotDataWriter implements DataWriter<InternalRow> {
  /** What a task sent (for the log; the published counts are the core's: the attempts' records or the counting scan). */
  record Sent(long rows, long bytes) implements WriterCommitMessage {}

  private final JobDatasets datasets;
  private final SnapshotTaskWriter rows;
  private final InternalRowEncoder encoder;
  private final String family;

  private SnapshotDataWriter(JobDatasets datasets, SnapshotTaskWriter rows, InternalRowEncoder encoder,
      String family) {
    this.datasets = datasets;
    this.rows = rows;
    this.encoder = encoder;
    this.family = family;
  }

  static SnapshotDataWriter open(Configuration conf, DatasetId dataset, SnapshotHandle handle, String schemaText,
      String family, String[] columns, long writeBufferBytes) {
    InternalRowEncoder encoder = new InternalRowEncoder(Schema.parse(schemaText), columns);
    if (handle == null) {
      return new SnapshotDataWriter(null, null, encoder, family); // the run was published before
    }
    try {
      JobDatasets datasets = JobDatasets.open(conf);
      try {
        SnapshotDataset ds = datasets.open(dataset);
        return new SnapshotDataWriter(datasets, SnapshotTaskWriter.open(ds, handle, writeBufferBytes), encoder,
            family);
      } catch (RuntimeException e) {
        datasets.close();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("opening a task writer into " + dataset + " failed", e);
    }
  }

  @Override
  public void write(InternalRow row) {
    if (rows == null) {
      return;
    }
    RowEncoder.EncodedRow r = encoder.encode(row);
    rows.put(r.key(), family, r.qualifiers(), r.values());
  }

  @Override
  public WriterCommitMessage commit() {
    if (rows == null) {
      return new Sent(0, 0);
    }
    rows.close(); // sends the last batch, if the snapshot is still building
    return new Sent(rows.rowsSent(), rows.bytesSent());
  }

  @Override
  public void abort() {
    if (rows != null) {
      rows.discard();
    }
  }

  @Override
  public void close() throws IOException {
    if (datasets != null) {
      datasets.close();
    }
  }
}
