package io.snapds.spark;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.read.SplitReader;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/**
 * Reads input partitions on the executors with the core's {@link SplitReader}, decoding each row
 * with the snapshot's schema ({@link RowCodec}, the codec every adapter uses) into the columns the
 * query needs. A scan of key columns only fetches one cell per row.
 */
final class SnapshotReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private static final String WHEN_PIN_LAPSED = "the query's reader pin lapsed (the Spark driver stopped renewing"
      + " it); keep the driver alive while the query runs, or raise option " + SnapdsOptions.PIN_TTL;

  private final SerializableConf conf;
  private final String schemaText;
  private final String family;
  private final String[] columns;

  SnapshotReaderFactory(SerializableConf conf, String schemaText, String family, String[] columns) {
    this.conf = conf;
    this.schemaText = schemaText;
    this.family = family;
    this.columns = columns;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    Schema schema = Schema.parse(schemaText);
    Field[] fields = new Field[columns.length];
    boolean keysOnly = true;
    for (int i = 0; i < columns.length; i++) {
      fields[i] = schema.field(columns[i]);
      keysOnly &= fields[i].isKey();
    }
    try {
      Connection connection = ConnectionFactory.createConnection(conf.get());
      try {
        RowScan projection = keysOnly ? RowScan.all() : RowScan.all().family(family);
        SplitReader reader = SplitReader.open(connection, ((SnapshotInputPartition) partition).split(), projection,
            keysOnly, WHEN_PIN_LAPSED);
        return new Reader(connection, reader, schema, fields, keysOnly, family);
      } catch (IOException | RuntimeException e) {
        connection.close();
        throw e;
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("opening " + partition + " failed", e);
    }
  }

  private static final class Reader implements PartitionReader<InternalRow> {
    private final Connection connection;
    private final SplitReader reader;
    private final Field[] fields;
    private final boolean keysOnly;
    private final KeyCodec keys;
    private final RowCodec codec;
    private final List<Field> keyFields;
    private long fetched;
    private InternalRow current;

    Reader(Connection connection, SplitReader reader, Schema schema, Field[] fields, boolean keysOnly, String family) {
      this.connection = connection;
      this.reader = reader;
      this.fields = fields;
      this.keysOnly = keysOnly;
      this.keys = new KeyCodec(schema);
      this.codec = new RowCodec(schema, family);
      this.keyFields = schema.keyFields();
    }

    @Override
    public boolean next() throws IOException {
      if (!reader.next()) {
        return false;
      }
      fetched++;
      Object[] values = new Object[fields.length];
      if (keysOnly) {
        List<Object> k = keys.decode(reader.key());
        for (int i = 0; i < fields.length; i++) {
          values[i] = SparkTypes.toInternal(fields[i], k.get(keyFields.indexOf(fields[i])));
        }
      } else {
        SchemaRecord record = codec.decode(reader.row());
        for (int i = 0; i < fields.length; i++) {
          values[i] = SparkTypes.toInternal(fields[i], record.get(fields[i].name()));
        }
      }
      current = new GenericInternalRow(values);
      return true;
    }

    @Override
    public InternalRow get() {
      return current;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
      long n = fetched;
      return new CustomTaskMetric[] {new CustomTaskMetric() {
        @Override
        public String name() {
          return SnapshotScan.ROWS_FETCHED;
        }

        @Override
        public long value() {
          return n;
        }
      }};
    }

    @Override
    public void close() throws IOException {
      try {
        reader.close();
      } finally {
        connection.close();
      }
    }
  }
}
