package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.DefaultHiveMetaHook;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.MetaException;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.serde2.SerDeException;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;

/**
 * Checks a table when it is created (the dataset exists, the mapping fits the table and the
 * dataset's families), and turns {@code INSERT OVERWRITE} into a snapshot: begun before the job,
 * published after it succeeded (or staged, under {@link HiveTableProperties#WRITE_STAGE}), aborted
 * if the commit fails. Dropping the table leaves the dataset alone: it belongs to snapds, not to
 * Hive.
 */
final class SnapshotMetaHook extends DefaultHiveMetaHook {
  private final Configuration conf;

  SnapshotMetaHook(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public void preCreateTable(Table table) throws MetaException {
    Properties props = new Properties();
    props.putAll(table.getParameters());
    if (table.getSd() != null && table.getSd().getSerdeInfo() != null
        && table.getSd().getSerdeInfo().getParameters() != null) {
      props.putAll(table.getSd().getSerdeInfo().getParameters());
    }
    if (SchemaTable.isSchemaTable(props)) {
      try {
        // Hive asked the SerDe for the columns of a CREATE TABLE without a column list; a list
        // given by hand must be the schema's, as the columns follow the dataset schema
        SchemaTable schemaTable = SchemaTable.open(conf, props);
        List<String> given = new ArrayList<>();
        table.getSd().getCols().forEach(f -> given.add(f.getName() + " " + f.getType()));
        List<String> schemaColumns = new ArrayList<>();
        for (int i = 0; i < schemaTable.columnNames().size(); i++) {
          schemaColumns.add(schemaTable.columnNames().get(i) + " " + schemaTable.columnTypes().get(i).getTypeName());
        }
        if (!given.isEmpty() && !given.equals(schemaColumns)) {
          throw new IllegalArgumentException("the columns " + given + " are not those of the dataset's schema "
              + schemaColumns + ": leave the column list out (the table takes the schema's), or map columns with "
              + HiveTableProperties.COLUMNS_MAPPING);
        }
      } catch (RuntimeException e) {
        throw metaException("table " + table.getTableName() + ": " + e.getMessage(), e);
      }
      return;
    }
    List<String> names = new ArrayList<>();
    List<TypeInfo> types = new ArrayList<>();
    for (FieldSchema f : table.getSd().getCols()) {
      names.add(f.getName());
      types.add(TypeInfoUtils.getTypeInfoFromTypeString(f.getType()));
    }
    try {
      ColumnMappings mappings = SnapshotSerDe.mappings(props, names, types);
      DatasetId id = DatasetId.parse(props.getProperty(HiveTableProperties.DATASET));
      try (SnapshotDataset dataset = DatasetConnections.datasets(conf).open(id)) {
        mappings.checkFamilies(dataset.properties().families(), id.toString());
      }
    } catch (SerDeException | SnapshotDatasetException | IllegalArgumentException e) {
      throw metaException("table " + table.getTableName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void rollbackCreateTable(Table table) {
  }

  @Override
  public void commitCreateTable(Table table) {
  }

  @Override
  public void preDropTable(Table table) {
  }

  @Override
  public void rollbackDropTable(Table table) {
  }

  @Override
  public void commitDropTable(Table table, boolean deleteData) {
  }

  @Override
  public void preInsertTable(Table table, boolean overwrite) throws MetaException {
    if (!overwrite) {
      throw new MetaException("table " + table.getTableName() + ": INSERT INTO is not supported, a snapshot is "
          + "written whole; use INSERT OVERWRITE TABLE");
    }
    try {
      PendingInserts.begin(conf, dataset(table), SnapshotSettings.stage(table.getParameters()::get, conf));
    } catch (SnapshotDatasetException | IllegalArgumentException | IllegalStateException e) {
      throw metaException("table " + table.getTableName() + ": cannot begin a snapshot: " + e.getMessage(), e);
    }
  }

  @Override
  public void commitInsertTable(Table table, boolean overwrite) throws MetaException {
    try {
      PendingInserts.commit(PendingInserts.queryId(conf));
    } catch (SnapshotDatasetException | IllegalStateException e) {
      throw metaException("table " + table.getTableName() + ": publishing the snapshot failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void rollbackInsertTable(Table table, boolean overwrite) {
    PendingInserts.abort(PendingInserts.queryId(conf));
  }

  private static DatasetId dataset(Table table) {
    return DatasetId.parse(table.getParameters().get(HiveTableProperties.DATASET));
  }

  private static MetaException metaException(String message, Exception cause) {
    MetaException e = new MetaException(message);
    e.initCause(cause);
    return e;
  }
}
