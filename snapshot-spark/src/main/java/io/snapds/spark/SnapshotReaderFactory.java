package io.snapds.spark;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.read.SplitReader;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowDecoder;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.Type;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Reads input partitions on the executors with the core's {@link SplitReader}, decoding each row
 * with the snapshot's schema ({@link RowDecoder}: the values of the {@code RowCodec} every adapter
 * uses, as Spark's internal values with no Java object between) into the columns the query needs. A scan of key columns only fetches one cell per row.
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
    /** The row of a query that reads no column (Spark lets a reader return one row object again). */
    private static final InternalRow NO_COLUMNS = new GenericInternalRow(new Object[0]);

    private final Connection connection;
    private final SplitReader reader;
    private final Field[] fields;
    /** Per column: its field's index in the schema. */
    private final int[] fieldIndexes;
    private final boolean keysOnly;
    private final RowDecoder decoder;
    private long fetched;
    private InternalRow current;

    Reader(Connection connection, SplitReader reader, Schema schema, Field[] fields, boolean keysOnly, String family) {
      this.connection = connection;
      this.reader = reader;
      this.fields = fields;
      this.keysOnly = keysOnly;
      this.fieldIndexes = new int[fields.length];
      for (int i = 0; i < fields.length; i++) {
        fieldIndexes[i] = schema.fields().indexOf(fields[i]);
      }
      this.decoder = new RowDecoder(schema, family, fieldIndexes);
    }

    @Override
    public boolean next() throws IOException {
      if (!reader.next()) {
        return false;
      }
      fetched++;
      if (fields.length == 0) { // count(*) reads no column: nothing to decode
        current = NO_COLUMNS;
        return true;
      }
      decoder.read(decoder.needsKey() ? reader.key() : null, keysOnly ? null : reader.row());
      Object[] values = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        values[i] = value(i);
      }
      current = new GenericInternalRow(values);
      return true;
    }

    /** Column {@code i} of the current row as Spark's internal value. */
    private Object value(int i) {
      int f = fieldIndexes[i];
      if (decoder.isNull(f)) {
        return null;
      }
      Type type = fields[i].type();
      return switch (type.kind()) {
        case BOOLEAN -> decoder.getBoolean(f);
        case INT, DATE -> decoder.getInt(f);
        case LONG, TIMESTAMP, TIMESTAMPTZ -> decoder.getLong(f);
        case FLOAT -> decoder.getFloat(f);
        case DOUBLE -> decoder.getDouble(f);
        case STRING -> UTF8String.fromBytes(decoder.getUtf8(f));
        case BYTES -> decoder.getBytes(f);
        case DECIMAL -> Decimal.apply(decoder.getDecimal(f), type.precision(), type.scale());
        default -> throw new IllegalArgumentException("no Spark value for " + fields[i]);
      };
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
