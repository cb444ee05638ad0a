package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;

/**
 * A Hive table over a dataset with a schema (a table without {@code snapds.columns.mapping}). Its
 * columns are the fields of the <em>table schema</em>: the schema of the snapshot that the table
 * property or session setting {@code snapds.snapshot.id} / {@code snapds.snapshot.asof} selects,
 * else the dataset's current schema ({@link HiveTypes} says which Hive type each field has).
 * A row of any snapshot (a {@code FOR SYSTEM_VERSION AS OF} reads an older one) decodes with the
 * schema that snapshot was written with, projected onto the table schema by field id: a field
 * renamed since reads under its new name, a field added since reads NULL, an int widened to long
 * reads as that long. While the table reads a diff ({@link HiveTableProperties#DIFF_FROM}, as a table
 * property or a session setting), its first column is the change type,
 * {@link HiveTableProperties#CHANGE_COLUMN}.
 */
final class SchemaTable {
  private final Configuration conf;
  private final DatasetId dataset;
  private final Schema schema;
  private final String family;
  /** Whether the table reads a diff: its first column is then the change type. */
  private final boolean changeColumn;
  /** The write schema of each snapshot read so far, as a codec (a query reads one or a few). */
  private final Map<SnapshotId, RowCodec> written = new ConcurrentHashMap<>();

  private SchemaTable(Configuration conf, DatasetId dataset, Schema schema, String family, boolean changeColumn) {
    this.conf = conf;
    this.dataset = dataset;
    this.schema = schema;
    this.family = family;
    this.changeColumn = changeColumn;
    schema.fields().forEach(f -> HiveTypes.typeInfo(f.type()));
    if (changeColumn
        && schema.fields().stream().anyMatch(f -> f.name().equalsIgnoreCase(HiveTableProperties.CHANGE_COLUMN))) {
      throw new IllegalArgumentException("dataset " + dataset + " has a field named "
          + HiveTableProperties.CHANGE_COLUMN + ", the column a diff adds: read the diff through a table with a"
          + " column list and " + HiveTableProperties.COLUMNS_MAPPING + " (':change' maps the change type to a column"
          + " of your naming)");
    }
  }

  /** Whether the table takes its columns from the dataset's schema: it has no column mapping. */
  static boolean isSchemaTable(Properties table) {
    return table.getProperty(HiveTableProperties.COLUMNS_MAPPING) == null;
  }

  /**
   * The table over the dataset the properties name, with the schema they select.
   *
   * @throws IllegalArgumentException when the dataset property is missing or bad, or the dataset
   *     has no schema (the message names the mapping to use instead)
   * @throws io.snapds.dataset.SnapshotDatasetException when the dataset or the snapshot cannot be read
   */
  static SchemaTable open(Configuration conf, Properties table) {
    String name = table.getProperty(HiveTableProperties.DATASET);
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("table property " + HiveTableProperties.DATASET
          + " is missing: name the dataset as 'namespace:name'");
    }
    DatasetId id = DatasetId.parse(name);
    SnapshotSelector selector = SnapshotSettings.fromSettings(table, conf);
    boolean diff = SnapshotSettings.diff(table, conf).isPresent();
    try (SnapshotDataset dataset = DatasetConnections.datasets(conf).open(id)) {
      Optional<Schema> schema = selector.equals(SnapshotSelector.current()) ? dataset.schema()
          : dataset.schema(QueryPins.resolve(conf, id, selector));
      if (schema.isEmpty()) {
        throw new IllegalArgumentException("dataset " + id + " has no schema: give the table a column list and "
            + HiveTableProperties.COLUMNS_MAPPING + " (e.g. ':key,d:price'), or give the dataset a schema");
      }
      return new SchemaTable(conf, id, schema.get(), dataset.properties().defaultFamily(), diff);
    }
  }

  Schema schema() {
    return schema;
  }

  List<String> columnNames() {
    List<String> out = new ArrayList<>();
    if (changeColumn) {
      out.add(HiveTableProperties.CHANGE_COLUMN);
    }
    schema.fields().forEach(f -> out.add(f.name()));
    return out;
  }

  List<TypeInfo> columnTypes() {
    List<TypeInfo> out = new ArrayList<>();
    if (changeColumn) {
      out.add(TypeInfoFactory.stringTypeInfo);
    }
    schema.fields().forEach(f -> out.add(HiveTypes.typeInfo(f.type())));
    return out;
  }

  KeyColumn keyColumn() {
    return new SchemaKeyColumn(schema);
  }

  /**
   * Decodes {@code row} of {@code snapshot} into {@code into}, one Hive value per column (first the
   * change type, when the table reads a diff).
   *
   * @param change the diff's change type of the row; null for a row of one snapshot
   * @throws io.snapds.dataset.schema.InvalidValueException if a cell does not decode as its type
   * @throws IllegalStateException if the snapshot has no schema
   */
  void decode(SnapshotRow row, SnapshotId snapshot, RowChange.Kind change, List<Object> into) {
    RowCodec codec = written.computeIfAbsent(snapshot, this::writtenWith);
    SchemaRecord record = codec.decode(row);
    List<Field> fields = schema.fields();
    int first = 0;
    if (changeColumn) {
      into.set(0, change == null ? null : change.name());
      first = 1;
    }
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      Optional<Field> then = record.schema().findField(f.id());
      into.set(first + i, then.isEmpty() ? null : HiveTypes.toHive(f, widen(f, record.get(then.get().name()))));
    }
  }

  private RowCodec writtenWith(SnapshotId snapshot) {
    try (SnapshotDataset ds = DatasetConnections.datasets(conf).open(dataset)) {
      return new RowCodec(ds.schema(snapshot).orElseThrow(() -> new IllegalStateException("snapshot " + snapshot
          + " of " + dataset + " has no schema: it was written without one")), family);
    }
  }

  /** A value of an older, narrower type of the field (int for long, float for double) as its type now. */
  private static Object widen(Field f, Object v) {
    if (v instanceof Integer i && f.type().kind() == io.snapds.dataset.schema.Type.Kind.LONG) {
      return i.longValue();
    }
    if (v instanceof Float x && f.type().kind() == io.snapds.dataset.schema.Type.Kind.DOUBLE) {
      return x.doubleValue();
    }
    return v;
  }
}
