package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotHandle;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;

/** What each write task needs: the snapshot's handle (null when the run was published before), the schema, the configuration. */
final class SnapshotDataWriterFactory implements DataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final SerializableConf conf;
  private final String dataset;
  private final String handle;
  private final String schemaText;
  private final String family;
  private final String[] columns;
  private final long writeBufferBytes;

  SnapshotDataWriterFactory(SerializableConf conf, String dataset, String handle, String schemaText, String family,
      String[] columns, long writeBufferBytes) {
    this.conf = conf;
    this.dataset = dataset;
    this.handle = handle;
    this.schemaText = schemaText;
    this.family = family;
    this.columns = columns;
    this.writeBufferBytes = writeBufferBytes;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    return SnapshotDataWriter.open(conf.get(), DatasetId.parse(dataset),
        handle == null ? null : SnapshotHandle.decode(handle), schemaText, family, columns, writeBufferBytes);
  }
}
