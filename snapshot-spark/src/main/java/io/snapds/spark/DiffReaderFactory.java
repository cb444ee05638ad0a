package io.snapds.spark;

import io.snapds.dataset.RowChange;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.read.DiffSplitReader;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.ValueCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Reads diff partitions on the executors with the core's {@link DiffSplitReader} (a split reader
 * of each snapshot, merged by {@code ChangeMerge}, the merge the Java API's diff runs), comparing
 * the diff's columns, and decodes the columns the query needs from each change: the key from the
 * row key, a value column from the new row (the old row for REMOVED) with the newer snapshot's
 * schema, {@code old_<column>} from the old row with the older snapshot's schema (the field of the
 * same id).
 */
final class DiffReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private static final String WHEN_PIN_LAPSED = "the query's reader pins lapsed (the Spark driver stopped renewing"
      + " them); keep the driver alive while the query runs, or raise option " + SnapdsOptions.PIN_TTL;
  private static final UTF8String[] KINDS = {UTF8String.fromString(RowChange.Kind.ADDED.name()),
      UTF8String.fromString(RowChange.Kind.REMOVED.name()), UTF8String.fromString(RowChange.Kind.CHANGED.name())};

  private final SerializableConf conf;
  private final String fromSchemaText;
  private final String toSchemaText;
  private final String family;
  private final String[] compared;
  private final String[] columns;

  /**
   * @param compared the value fields the diff compares; none: every column
   * @param columns the query's columns, of the {@link DiffTable}'s
   */
  DiffReaderFactory(SerializableConf conf, String fromSchemaText, String toSchemaText, String family,
      String[] compared, String[] columns) {
    this.conf = conf;
    this.fromSchemaText = fromSchemaText;
    this.toSchemaText = toSchemaText;
    this.family = family;
    this.compared = compared;
    this.columns = columns;
  }

  /** How one column of the output is made from a change. */
  private enum Source { CHANGE, KEY, SHOWN, OLD }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    Schema from = Schema.parse(fromSchemaText);
    Schema to = Schema.parse(toSchemaText);
    int n = columns.length;
    Source[] sources = new Source[n];
    Field[] fields = new Field[n];
    Field[] oldFields = new Field[n];
    int[] keyIndex = new int[n];
    byte[][] newQualifiers = new byte[n][];
    byte[][] oldQualifiers = new byte[n][];
    for (int i = 0; i < n; i++) {
      String c = columns[i];
      if (c.equals(DiffTable.CHANGE)) {
        sources[i] = Source.CHANGE;
        continue;
      }
      boolean old = c.startsWith(DiffTable.OLD) && to.findField(c).isEmpty();
      Field f = to.field(old ? c.substring(DiffTable.OLD.length()) : c);
      fields[i] = f;
      oldFields[i] = from.findField(f.id()).orElse(null); // a field added since: no old value
      newQualifiers[i] = Bytes.toBytes(f.name());
      oldQualifiers[i] = oldFields[i] == null ? null : Bytes.toBytes(oldFields[i].name());
      if (f.isKey()) {
        sources[i] = Source.KEY;
        keyIndex[i] = to.keyFields().indexOf(f);
      } else {
        sources[i] = old ? Source.OLD : Source.SHOWN;
      }
    }
    RowScan projection = RowScan.all();
    for (String q : compared) {
      projection = projection.column(family, q);
    }
    try {
      Connection connection = ConnectionFactory.createConnection(conf.get());
      try {
        DiffSplitReader reader = DiffSplitReader.open(connection, ((DiffInputPartition) partition).split(), projection,
            WHEN_PIN_LAPSED);
        return new Reader(connection, reader, new KeyCodec(to), Bytes.toBytes(family), sources, fields, oldFields,
            keyIndex, newQualifiers, oldQualifiers);
      } catch (IOException | RuntimeException e) {
        connection.close();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("opening " + partition + " failed", e);
    }
  }

  private static final class Reader implements PartitionReader<InternalRow> {
    private final Connection connection;
    private final DiffSplitReader reader;
    private final KeyCodec keys;
    private final byte[] family;
    private final Source[] sources;
    private final Field[] fields;
    private final Field[] oldFields;
    private final int[] keyIndex;
    private final byte[][] newQualifiers;
    private final byte[][] oldQualifiers;
    private InternalRow current;

    Reader(Connection connection, DiffSplitReader reader, KeyCodec keys, byte[] family, Source[] sources,
        Field[] fields, Field[] oldFields, int[] keyIndex, byte[][] newQualifiers, byte[][] oldQualifiers) {
      this.connection = connection;
      this.reader = reader;
      this.keys = keys;
      this.family = family;
      this.sources = sources;
      this.fields = fields;
      this.oldFields = oldFields;
      this.keyIndex = keyIndex;
      this.newQualifiers = newQualifiers;
      this.oldQualifiers = oldQualifiers;
    }

    @Override
    public boolean next() throws IOException {
      if (!reader.next()) {
        return false;
      }
      RowChange change = reader.change();
      SnapshotRow before = change.before().orElse(null);
      SnapshotRow after = change.after().orElse(null);
      List<Object> keyValues = null;
      Object[] values = new Object[sources.length];
      for (int i = 0; i < values.length; i++) {
        switch (sources[i]) {
          case CHANGE -> values[i] = KINDS[change.kind().ordinal()];
          case KEY -> {
            if (keyValues == null) {
              keyValues = keys.decode(change.key());
            }
            values[i] = SparkTypes.toInternal(fields[i], keyValues.get(keyIndex[i]));
          }
          case SHOWN -> values[i] = after != null ? value(after, fields[i], newQualifiers[i], fields[i])
              : value(before, oldFields[i], oldQualifiers[i], fields[i]);
          case OLD -> values[i] = before == null ? null : value(before, oldFields[i], oldQualifiers[i], fields[i]);
        }
      }
      current = new GenericInternalRow(values);
      return true;
    }

    /** Field {@code stored}'s cell (qualifier {@code qualifier}) of {@code row}, decoded, as column {@code column}'s internal value. */
    private Object value(SnapshotRow row, Field stored, byte[] qualifier, Field column) {
      if (stored == null) {
        return null;
      }
      byte[] cell = row.value(family, qualifier);
      return cell == null ? null : SparkTypes.toInternal(column, ValueCodec.decode(stored, cell));
    }

    @Override
    public InternalRow get() {
      return current;
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
