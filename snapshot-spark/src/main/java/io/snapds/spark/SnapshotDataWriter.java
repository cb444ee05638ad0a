package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.write.SnapshotTaskWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * One task attempt's writer: each row encoded with the dataset's schema ({@link RowCodec}, the
 * codec every adapter uses) and sent through the core's {@link SnapshotTaskWriter}, which checks
 * before each batch that the snapshot is still BUILDING. A failed or losing attempt
 * ({@link #abort}) sends nothing more; what it had sent stays under keys a retry writes again.
 */
final class SnapshotDataWriter implements DataWriter<InternalRow> {
  /** What a task sent (for the log; the published counts come from the counting scan). */
  record Sent(long rows, long bytes) implements WriterCommitMessage {}

  private final JobDatasets datasets;
  private final SnapshotTaskWriter rows;
  private final RowCodec codec;
  private final Field[] fields;

  private SnapshotDataWriter(JobDatasets datasets, SnapshotTaskWriter rows, RowCodec codec, Field[] fields) {
    this.datasets = datasets;
    this.rows = rows;
    this.codec = codec;
    this.fields = fields;
  }

  static SnapshotDataWriter open(Configuration conf, DatasetId dataset, SnapshotHandle handle, String schemaText,
      String family, String[] columns, long writeBufferBytes) {
    Schema schema = Schema.parse(schemaText);
    Field[] fields = new Field[columns.length];
    for (int i = 0; i < columns.length; i++) {
      fields[i] = schema.field(columns[i]);
    }
    RowCodec codec = new RowCodec(schema, family);
    if (handle == null) {
      return new SnapshotDataWriter(null, null, codec, fields); // the run was published before
    }
    try {
      JobDatasets datasets = JobDatasets.open(conf);
      try {
        SnapshotDataset ds = datasets.open(dataset);
        return new SnapshotDataWriter(datasets, SnapshotTaskWriter.open(ds, handle, writeBufferBytes), codec, fields);
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
    SchemaRecord.Builder b = SchemaRecord.builder(codec.schema());
    for (int i = 0; i < fields.length; i++) {
      b.set(fields[i].name(), SparkTypes.fromInternal(fields[i], row, i));
    }
    rows.put(codec.encode(b.build()));
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
