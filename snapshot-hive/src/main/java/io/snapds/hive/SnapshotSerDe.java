package io.snapds.hive;

import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.SnapshotRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.serde2.AbstractSerDe;
import org.apache.hadoop.hive.serde2.SerDeException;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorFactory;
import org.apache.hadoop.hive.serde2.objectinspector.PrimitiveObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.StructField;
import org.apache.hadoop.hive.serde2.objectinspector.StructObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.primitive.PrimitiveObjectInspectorFactory;
import org.apache.hadoop.io.Writable;

/**
 * Maps snapshot rows to Hive rows and back. A table with {@code snapds.columns.mapping} maps
 * column by column as the mapping says (see {@link ColumnMappings} and {@link ValueEncoding}; a
 * missing cell is NULL, writing a NULL writes no cell). A table without one takes its columns
 * from the dataset's schema and decodes each row with the schema its snapshot was written with
 * ({@link SchemaTable}). A table that reads a diff ({@link HiveTableProperties#DIFF_FROM}) gets each
 * change's row (the old row of a REMOVED one, else the new one) and its change type in the
 * {@code :change} column (a schema table: the first column, {@link HiveTableProperties#CHANGE_COLUMN}),
 * and in {@code :old:family:qualifier} columns the older snapshot's values.
 * Rows are Java lists read through Hive's standard Java object inspectors.
 */
public final class SnapshotSerDe extends AbstractSerDe {
  private ColumnMappings mappings;
  private SchemaTable schemaTable;
  private StructObjectInspector inspector;
  private List<Object> row;

  @Override
  public void initialize(Configuration conf, Properties tableProperties, Properties partitionProperties)
      throws SerDeException {
    super.initialize(conf, tableProperties, partitionProperties);
    List<String> names;
    List<org.apache.hadoop.hive.serde2.typeinfo.TypeInfo> types;
    if (SchemaTable.isSchemaTable(properties)) {
      try {
        this.schemaTable = SchemaTable.open(conf, properties);
      } catch (RuntimeException e) { // SnapshotDatasetException, IllegalArgumentException
        throw new SerDeException(e.getMessage(), e);
      }
      names = schemaTable.columnNames();
      types = schemaTable.columnTypes();
    } else {
      this.mappings = mappings(properties, getColumnNames(), getColumnTypes());
      names = getColumnNames();
      types = getColumnTypes();
    }
    List<ObjectInspector> fields = new ArrayList<>();
    for (org.apache.hadoop.hive.serde2.typeinfo.TypeInfo t : types) {
      fields.add(PrimitiveObjectInspectorFactory.getPrimitiveJavaObjectInspector(
          (org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo) t));
    }
    this.inspector = ObjectInspectorFactory.getStandardStructObjectInspector(names, fields);
    this.row = new ArrayList<>(Arrays.asList(new Object[fields.size()]));
  }

  /** Parses and checks the table's dataset name and column mapping; SerDeException names what is wrong. */
  static ColumnMappings mappings(Properties props, List<String> names,
      List<org.apache.hadoop.hive.serde2.typeinfo.TypeInfo> types) throws SerDeException {
    String dataset = props.getProperty(HiveTableProperties.DATASET);
    try {
      if (dataset == null || dataset.isBlank()) {
        throw new IllegalArgumentException("table property " + HiveTableProperties.DATASET
            + " is missing: name the dataset as 'namespace:name'");
      }
      DatasetId.parse(dataset);
      return ColumnMappings.parse(props.getProperty(HiveTableProperties.COLUMNS_MAPPING), names, types);
    } catch (IllegalArgumentException e) {
      throw new SerDeException(e.getMessage(), e);
    }
  }

  /** The key column that conditions are pushed on. */
  KeyColumn keyColumn() {
    return schemaTable != null ? schemaTable.keyColumn() : new MappedKeyColumn(mappings.key());
  }

  @Override
  public Class<? extends Writable> getSerializedClass() {
    return SnapshotRowWritable.class;
  }

  @Override
  public ObjectInspector getObjectInspector() {
    return inspector;
  }

  @Override
  public Object deserialize(Writable blob) throws SerDeException {
    if (schemaTable != null) {
      HiveSnapshotRow h = (HiveSnapshotRow) blob;
      try {
        schemaTable.decode(h.row(), h.snapshot(), h.change(), row);
      } catch (RuntimeException e) { // a cell that does not decode as its field's type
        throw new SerDeException(e.getMessage(), e);
      }
      return row;
    }
    SnapshotRow r = blob instanceof HiveSnapshotRow h ? h.row() : ((SnapshotRowWritable) blob).get();
    RowChange.Kind change = blob instanceof HiveSnapshotRow h ? h.change() : null;
    SnapshotRow older = blob instanceof HiveSnapshotRow h ? h.older() : null;
    List<ColumnMapping> cols = mappings.columns();
    for (int i = 0; i < cols.size(); i++) {
      ColumnMapping c = cols.get(i);
      if (c.isChange()) {
        row.set(i, change == null ? null : change.name());
        continue;
      }
      byte[] bytes = c.isKey() ? r.key() : c.isOld() ? (older == null ? null : older.value(c.family(), c.qualifier()))
          : r.value(c.family(), c.qualifier());
      row.set(i, HiveValueCodec.decode(bytes, c.type(), c.encoding()));
    }
    return row;
  }

  @Override
  public Writable serialize(Object obj, ObjectInspector objInspector) throws SerDeException {
    if (schemaTable != null) {
      throw new SerDeException("table over dataset " + properties.getProperty(HiveTableProperties.DATASET)
          + " takes its columns from the dataset's schema; writing it from Hive is not supported yet: write "
          + "through the Java API, MapReduce, the CDAP sink or 'snapds load'");
    }
    StructObjectInspector soi = (StructObjectInspector) objInspector;
    List<? extends StructField> fields = soi.getAllStructFieldRefs();
    List<ColumnMapping> cols = mappings.columns();
    if (fields.size() != cols.size()) {
      throw new SerDeException("row has " + fields.size() + " fields, the mapping " + cols.size());
    }
    byte[] key = null;
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < cols.size(); i++) {
      ColumnMapping c = cols.get(i);
      if (c.isChange() || c.isOld()) {
        continue; // a diff's change type or old value: not stored (an INSERT under the diff settings is refused)
      }
      PrimitiveObjectInspector poi = (PrimitiveObjectInspector) fields.get(i).getFieldObjectInspector();
      Object value = poi.getPrimitiveJavaObject(soi.getStructFieldData(obj, fields.get(i)));
      byte[] bytes = HiveValueCodec.encode(value, c.type(), c.encoding());
      if (c.isKey()) {
        key = bytes;
      } else if (bytes != null) {
        cells.computeIfAbsent(c.family(), f -> new TreeMap<>(Bytes.BYTES_COMPARATOR)).put(c.qualifier(), bytes);
      }
    }
    if (key == null || key.length == 0) {
      throw new SerDeException("row key column " + mappings.key().hiveName() + " is NULL or empty; every row needs a key");
    }
    return new SnapshotRowWritable(new SnapshotRow(key, cells));
  }
}
