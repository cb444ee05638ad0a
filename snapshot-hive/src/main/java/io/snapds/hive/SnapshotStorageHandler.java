package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.SnapshotSelector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaHook;
import org.apache.hadoop.hive.metastore.api.hive_metastoreConstants;
import org.apache.hadoop.hive.ql.exec.TableScanOperator;
import org.apache.hadoop.hive.ql.metadata.DefaultStorageHandler;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.metadata.HiveStoragePredicateHandler;
import org.apache.hadoop.hive.ql.metadata.InputEstimator;
import org.apache.hadoop.hive.ql.parse.SemanticException;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.FileSinkDesc;
import org.apache.hadoop.hive.ql.plan.TableDesc;
import org.apache.hadoop.hive.serde.serdeConstants;
import org.apache.hadoop.hive.serde2.AbstractSerDe;
import org.apache.hadoop.hive.serde2.Deserializer;
import org.apache.hadoop.hive.serde2.SerDeException;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputFormat;

/**
 * Hive tables over snapshot datasets:
 * <pre>{@code
 * CREATE EXTERNAL TABLE prices (sku string, price double, qty int)
 * STORED BY 'io.snapds.hive.SnapshotStorageHandler'
 * TBLPROPERTIES ('snapds.dataset' = 'shop:prices', 'snapds.columns.mapping' = ':key,d:price,d:qty#b');
 * }</pre>
 * A query reads one snapshot per table reference, chosen when the query is compiled: the current
 * one, or the one a table property or session setting names ({@link SnapshotSelector}), or the
 * one {@code FOR SYSTEM_VERSION AS OF} / {@code FOR SYSTEM_TIME AS OF} names. Row-key conditions
 * narrow the scan ({@link KeyPredicates}). {@code INSERT OVERWRITE} writes a new snapshot and
 * publishes it when the query succeeds ({@link SnapshotMetaHook}), or stages it under
 * {@code snapds.write.stage=true} ({@link HiveTableProperties#WRITE_STAGE}). Under
 * {@code snapds.diff.from} and {@code snapds.diff.to} ({@link HiveTableProperties#DIFF_FROM}) a table
 * reads the rows that differ between two snapshots, with their change type.
 */
public class SnapshotStorageHandler extends DefaultStorageHandler implements HiveStoragePredicateHandler,
    InputEstimator {

  @Override
  public Class<? extends InputFormat> getInputFormatClass() {
    return HiveSnapshotInputFormat.class;
  }

  @Override
  public Class<? extends OutputFormat> getOutputFormatClass() {
    return HiveSnapshotOutputFormat.class;
  }

  @Override
  public Class<? extends AbstractSerDe> getSerDeClass() {
    return SnapshotSerDe.class;
  }

  @Override
  public HiveMetaHook getMetaHook() {
    return new SnapshotMetaHook(getConf());
  }

  @Override
  public boolean isTimeTravelAllowed() {
    return true;
  }

  /** A tag read as {@code db.table.tag_<name>}: Hive's syntax for Iceberg's refs. */
  @Override
  public boolean isTableMetaRefSupported() {
    return true;
  }

  /**
   * Accepts {@code tag_<name>} (resolved and pinned with the query's other clauses, see
   * {@link AsOfClauses}), refuses anything else by name.
   */
  @Override
  public org.apache.hadoop.hive.ql.metadata.Table checkAndSetTableMetaRef(org.apache.hadoop.hive.ql.metadata.Table table,
      String ref) throws SemanticException {
    try {
      SnapshotSettings.fromRef(table.getFullyQualifiedName(), ref);
    } catch (IllegalArgumentException e) {
      throw new SemanticException(e.getMessage(), e);
    }
    table.setSnapshotRef(ref);
    return table;
  }

  /**
   * Resolves the snapshot the query reads (once per query, see {@link QueryPins}) and writes it,
   * with the dataset and the mapping, into the job; for a table that reads a diff, both snapshots
   * ({@link #pinDiff}).
   *
   * @throws IllegalArgumentException for a bad setting; SnapshotDatasetException when the dataset
   *     or the snapshot cannot be read: both fail the query's compilation
   */
  @Override
  public void configureInputJobProperties(TableDesc tableDesc, Map<String, String> jobProperties) {
    Properties table = tableDesc.getProperties();
    copyTableSettings(table, jobProperties);
    Map<String, String> previous = tableDesc.getJobProperties();
    String[] pinnedKeys = {HiveTableProperties.PINNED_SNAPSHOT, HiveTableProperties.PINNED_DIFF_FROM,
        HiveTableProperties.PINNED_DIFF_TO};
    if (previous != null && (previous.containsKey(pinnedKeys[0]) || previous.containsKey(pinnedKeys[1]))) {
      for (String key : pinnedKeys) {
        if (previous.containsKey(key)) {
          jobProperties.put(key, previous.get(key));
        }
      }
      return;
    }
    DatasetId dataset = DatasetId.parse(table.getProperty(HiveTableProperties.DATASET));
    String name = table.getProperty(hive_metastoreConstants.META_TABLE_NAME);
    Optional<SnapshotSettings.Diff> diff;
    try {
      diff = SnapshotSettings.diff(table, getConf());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("table " + name + ": " + e.getMessage(), e);
    }
    try {
      if (diff.isPresent()) {
        DiffPins pins;
        try {
          pins = pinDiff(getConf(), dataset, diff.get(), table);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("table " + name + ": " + e.getMessage(), e);
        }
        jobProperties.put(HiveTableProperties.PINNED_DIFF_FROM, pins.from().toString());
        jobProperties.put(HiveTableProperties.PINNED_DIFF_TO, pins.to().toString());
        return;
      }
      SnapshotSelector selector = SnapshotSettings.fromSettings(table, getConf());
      SnapshotId pinned = QueryPins.resolve(getConf(), dataset, selector);
      jobProperties.put(HiveTableProperties.PINNED_SNAPSHOT, pinned.toString());
      // blank, not absent: this table reads one snapshot even when another table of the job reads a diff
      jobProperties.put(HiveTableProperties.PINNED_DIFF_FROM, "");
      jobProperties.put(HiveTableProperties.PINNED_DIFF_TO, "");
    } catch (SnapshotDatasetException e) {
      throw new SnapshotDatasetException("table " + name + ": " + e.getMessage(), e);
    }
  }

  record DiffPins(SnapshotId from, SnapshotId to) {}

  /**
   * Resolves and pins a table's diff for the query ({@link QueryPins}: held until the query ends),
   * refuses a snapshot whose cleanup has begun (its pin protects nothing) and checks that the two
   * schemas compare on the table's columns.
   *
   * @throws SnapshotDatasetException naming the snapshot or field: unknown, expired, being cleaned,
   *     or a field renamed or widened between the two
   * @throws IllegalArgumentException for a mapped table without a {@code :change} column
   */
  static DiffPins pinDiff(Configuration conf, DatasetId dataset, SnapshotSettings.Diff diff, Properties table) {
    SnapshotId from = QueryPins.resolve(conf, dataset, diff.from());
    SnapshotId to = QueryPins.resolve(conf, dataset, diff.to());
    try (SnapshotDataset ds = DatasetConnections.datasets(conf).open(dataset)) {
      for (SnapshotId id : new SnapshotId[] {from, to}) {
        if (ds.isCleaned(id)) {
          throw new SnapshotNotAvailableException(dataset, "snapshot " + id + " of dataset " + dataset + " ("
              + (id.equals(from) ? HiveTableProperties.DIFF_FROM + " " + diff.from() : HiveTableProperties.DIFF_TO
              + " " + diff.to()) + ") is being cleaned: cleanup began deleting its rows, so it cannot be diffed");
        }
      }
      RowScan columns = RowScan.all();
      if (!SchemaTable.isSchemaTable(table)) {
        List<ColumnMapping> mapped = SnapshotSerDe.mappings(table,
            List.of(table.getProperty(serdeConstants.LIST_COLUMNS, "").split(",")),
            TypeInfoUtils.getTypeInfosFromTypeString(table.getProperty(serdeConstants.LIST_COLUMN_TYPES, "")))
            .columns();
        if (mapped.stream().noneMatch(ColumnMapping::isChange)) {
          throw new IllegalArgumentException("it reads a diff (" + HiveTableProperties.DIFF_FROM + ", "
              + HiveTableProperties.DIFF_TO + ") but has no change column, so added and removed rows would look"
              + " alike: add a string column mapped to ':change', e.g. (" + HiveTableProperties.CHANGE_COLUMN
              + " string, ...) with '" + HiveTableProperties.COLUMNS_MAPPING + "'=':key,:change,...'");
        }
        for (ColumnMapping c : mapped) {
          if (c.isCell()) {
            columns = columns.column(c.family(), c.qualifier());
          }
        }
      }
      DiffRead.requireComparable(dataset, from, to, List.of(ds.schema(from), ds.schema(to)), columns);
    } catch (SerDeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return new DiffPins(from, to);
  }

  @Override
  public void configureOutputJobProperties(TableDesc tableDesc, Map<String, String> jobProperties) {
    copyTableSettings(tableDesc.getProperties(), jobProperties);
  }

  @Override
  public void configureTableJobProperties(TableDesc tableDesc, Map<String, String> jobProperties) {
    copyTableSettings(tableDesc.getProperties(), jobProperties);
  }

  private static void copyTableSettings(Properties table, Map<String, String> jobProperties) {
    // not the table's snapshot selection: the job's settings are shared by every table of the query
    for (String key : new String[] {HiveTableProperties.DATASET, HiveTableProperties.COLUMNS_MAPPING}) {
      if (table.getProperty(key) != null) {
        jobProperties.put(key, table.getProperty(key));
      }
    }
    jobProperties.put(HiveSnapshotInputFormat.TableJobSettings.COLUMNS, table.getProperty(serdeConstants.LIST_COLUMNS, ""));
    jobProperties.put(HiveSnapshotInputFormat.TableJobSettings.COLUMN_TYPES,
        table.getProperty(serdeConstants.LIST_COLUMN_TYPES, ""));
  }

  /**
   * Rejects, when the query is compiled, an {@code INSERT INTO} (a snapshot is written whole), a
   * {@link HiveTableProperties#WRITE_STAGE} that is neither true nor false, a table that reads a
   * diff ({@link HiveTableProperties#DIFF_FROM}), and an
   * {@code INSERT OVERWRITE} on MapReduce without {@link SnapshotQueryHook}, which would never be
   * published.
   */
  @Override
  public void validateSinkDesc(FileSinkDesc sinkDesc) throws SemanticException {
    String table = "table " + sinkDesc.getTableInfo().getTableName() + " (" + this + ")";
    if (!sinkDesc.getInsertOverwrite()) {
      throw new SemanticException(table + ": INSERT INTO is not supported, a snapshot is written whole; "
          + "use INSERT OVERWRITE TABLE");
    }
    HiveConf conf = getConf() instanceof HiveConf ? (HiveConf) getConf() : new HiveConf(getConf(), HiveConf.class);
    try {
      SnapshotSettings.stage(sinkDesc.getTableInfo().getProperties()::getProperty, conf); // a bad value fails here
      Properties props = sinkDesc.getTableInfo().getProperties();
      if (SnapshotSettings.diff(props, conf).isPresent()) {
        throw new IllegalArgumentException("INSERT OVERWRITE writes one whole snapshot, but the table reads a diff ("
            + HiveTableProperties.DIFF_FROM + "=" + firstSet(props, conf, HiveTableProperties.DIFF_FROM) + ", "
            + HiveTableProperties.DIFF_TO + "=" + firstSet(props, conf, HiveTableProperties.DIFF_TO)
            + "): unset the diff settings (or the table properties) before writing");
      }
    } catch (IllegalArgumentException e) {
      throw new SemanticException(table + ": " + e.getMessage(), e);
    }
    if (!"tez".equals(conf.getVar(HiveConf.ConfVars.HIVE_EXECUTION_ENGINE)) && !SnapshotQueryHook.isPostExecHook(conf)) {
      throw new SemanticException(table + ": INSERT OVERWRITE on the " + conf.getVar(HiveConf.ConfVars.HIVE_EXECUTION_ENGINE)
          + " engine publishes its snapshot from a post-execution hook: add " + SnapshotQueryHook.class.getName()
          + " to " + HiveConf.ConfVars.POST_EXEC_HOOKS.varname + " and " + HiveConf.ConfVars.HIVE_QUERY_LIFETIME_HOOKS.varname);
    }
  }

  private static String firstSet(Properties table, Configuration session, String key) {
    String t = table.getProperty(key);
    return t != null && !t.isBlank() ? t + " (table property)" : session.get(key) + " (setting)";
  }

  @Override
  public DecomposedPredicate decomposePredicate(JobConf jobConf, Deserializer deserializer, ExprNodeDesc predicate) {
    return new KeyPredicates(((SnapshotSerDe) deserializer).keyColumn()).decompose(predicate);
  }

  /**
   * The size of the snapshot the query reads, from its published row and byte counts: lets Hive
   * choose map joins (and local mode) for small snapshot tables, as it does for small files.
   */
  @Override
  public Estimation estimate(JobConf job, TableScanOperator ts, long remaining) throws HiveException {
    String dataset = job.get(HiveTableProperties.DATASET);
    String pinned = job.get(HiveTableProperties.PINNED_SNAPSHOT);
    String diffFrom = job.get(HiveTableProperties.PINNED_DIFF_FROM);
    String diffTo = job.get(HiveTableProperties.PINNED_DIFF_TO);
    boolean diff = diffFrom != null && !diffFrom.isBlank() && diffTo != null && !diffTo.isBlank();
    if (dataset == null || pinned == null && !diff) {
      return new Estimation(-1, Long.MAX_VALUE); // unknown: never small
    }
    try (SnapshotDataset ds = DatasetConnections.datasets(job).open(DatasetId.parse(dataset))) {
      if (diff) { // at most every row of both
        SnapshotInfo a = ds.snapshot(SnapshotId.parse(diffFrom));
        SnapshotInfo b = ds.snapshot(SnapshotId.parse(diffTo));
        return new Estimation((int) Math.min(Integer.MAX_VALUE, a.rowCount() + b.rowCount()),
            a.byteCount() + b.byteCount());
      }
      SnapshotInfo info = ds.snapshot(SnapshotId.parse(pinned));
      return new Estimation((int) Math.min(Integer.MAX_VALUE, info.rowCount()), info.byteCount());
    } catch (SnapshotDatasetException e) {
      throw new HiveException("estimating the size of " + dataset + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "snapds";
  }
}
