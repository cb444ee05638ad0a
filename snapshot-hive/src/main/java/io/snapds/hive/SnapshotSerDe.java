package io.snapds.hive;

import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.DatasetId;
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
 * Maps snapshot rows to Hive rows and back, column by column as {@code snapds.columns.mapping}
 * says (see {@link ColumnMappings} and {@link ValueEncoding}). A missing cell is NULL; writing a
 * NULL writes no cell. Rows are Java lists read through Hive's standard Java object inspectors.
 */
public final class SnapshotSerDe extends AbstractSerDe {
  private ColumnMappings mappings;
  private StructObjectInspector inspector;
  private List<Object> row;

  @Override
  public void initialize(Configuration conf, Properties tableProperties, Properties partitionProperties)
      throws SerDeException {
    super.initialize(conf, tableProperties, partitionProperties);
    this.mappings = mappings(properties, getColumnNames(), getColumnTypes());
    List<ObjectInspector> fields = new ArrayList<>();
    for (ColumnMapping c : mappings.columns()) {
      fields.add(PrimitiveObjectInspectorFactory.getPrimitiveJavaObjectInspector(c.type()));
    }
    this.inspector = ObjectInspectorFactory.getStandardStructObjectInspector(getColumnNames(), fields);
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

  public ColumnMappings mappings() {
    return mappings;
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
    SnapshotRow r = blob instanceof HiveSnapshotRow h ? h.row() : ((SnapshotRowWritable) blob).get();
    List<ColumnMapping> cols = mappings.columns();
    for (int i = 0; i < cols.size(); i++) {
      ColumnMapping c = cols.get(i);
      byte[] bytes = c.isKey() ? r.key() : r.value(c.family(), c.qualifier());
      row.set(i, ValueCodec.decode(bytes, c.type(), c.encoding()));
    }
    return row;
  }

  @Override
  public Writable serialize(Object obj, ObjectInspector objInspector) throws SerDeException {
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
      PrimitiveObjectInspector poi = (PrimitiveObjectInspector) fields.get(i).getFieldObjectInspector();
      Object value = poi.getPrimitiveJavaObject(soi.getStructFieldData(obj, fields.get(i)));
      byte[] bytes = ValueCodec.encode(value, c.type(), c.encoding());
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
