package io.snapds.hive;

import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotRead;
import java.io.IOException;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;
import org.apache.hadoop.hive.serde.serdeConstants;
import org.apache.hadoop.hive.serde2.ColumnProjectionUtils;
import org.apache.hadoop.hive.serde2.SerDeException;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * The {@code mapred} input format Hive reads a snapshot table with. {@link #getSplits} picks the
 * snapshot once for the whole scan and writes it into every split:
 * <ol>
 *   <li>{@code FOR SYSTEM_VERSION AS OF id} or {@code FOR SYSTEM_TIME AS OF time} on this scan;
 *   <li>otherwise the snapshot the storage handler pinned when the query was compiled;
 *   <li>otherwise (used outside Hive's planner) the table's or session's selection, resolved now.
 * </ol>
 * The pushed-down key conditions become the splits' key ranges (see {@link KeyPredicates}).
 */
public final class HiveSnapshotInputFormat implements InputFormat<ImmutableBytesWritable, HiveSnapshotRow> {
  private static final int CACHING = 500;

  @Override
  public InputSplit[] getSplits(JobConf job, int numSplits) throws IOException {
    TableJobSettings table = TableJobSettings.of(job);
    try {
      SnapshotRead read = readForScan(job, table.dataset());
      List<KeyRange> ranges = new KeyPredicates(table.key())
          .rangesOf(job.get(TableScanDesc.FILTER_EXPR_CONF_STR));
      Path[] paths = FileInputFormat.getInputPaths(job);
      SharedScanGuard.check(job, paths);
      Path tablePath = paths.length > 0 ? paths[0] : new Path("/" + table.dataset().namespace() + "/" + table.dataset().name());
      List<RowScan> scans = ranges.stream().map(r -> RowScan.all().range(r.start(), r.stop())).toList();
      return read.planSplits(scans).stream().map(split -> new SnapshotSplit(tablePath, split)).toArray(InputSplit[]::new);
    } catch (SnapshotDatasetException | IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** The read plan of this scan; its pin is held for the query ({@link QueryPins}). */
  static SnapshotRead readForScan(JobConf job, DatasetId dataset) {
    String version = job.get(TableScanDesc.AS_OF_VERSION);
    String time = job.get(TableScanDesc.AS_OF_TIMESTAMP);
    String ref = job.get(TableScanDesc.SNAPSHOT_REF);
    SnapshotSelector selector;
    if (version != null && !version.isBlank()) {
      selector = SnapshotSelector.snapshot(SnapshotId.parse(version));
    } else if (ref != null && !ref.isBlank()) {
      selector = SnapshotSettings.fromRef(dataset.toString(), ref);
    } else if (time != null && !time.isBlank()) {
      selector = SnapshotSelector.asOf(SnapshotSettings.parseTime("FOR SYSTEM_TIME AS OF", time));
    } else {
      String pinned = job.get(HiveTableProperties.PINNED_SNAPSHOT);
      if (pinned != null) {
        // resolved and pinned when the query was compiled
        return QueryPins.pinned(job, dataset, SnapshotId.parse(pinned));
      }
      selector = SnapshotSettings.fromSettings(new Properties(), job);
    }
    return QueryPins.read(job, dataset, selector);
  }

  @Override
  public RecordReader<ImmutableBytesWritable, HiveSnapshotRow> getRecordReader(InputSplit split, JobConf job,
      Reporter reporter) throws IOException {
    SnapshotSplit s = (SnapshotSplit) split;
    TableJobSettings table = TableJobSettings.of(job);
    // a schema table decodes whole rows (a non-null field needs its cell), so it never fetches keys only
    boolean keysOnly = table.keyIndex() >= 0 && !ColumnProjectionUtils.isReadAllColumns(job)
        && ColumnProjectionUtils.getReadColumnIDs(job).stream().allMatch(i -> i == table.keyIndex());
    return new SnapshotRecordReader(DatasetConnections.datasets(job).connection(), s.delegate(), keysOnly, CACHING,
        reporter);
  }

  /** The table settings the storage handler put into the job. */
  /** @param keyIndex the key column's index, or -1 for a schema table (see getRecordReader) */
  record TableJobSettings(DatasetId dataset, KeyColumn key, int keyIndex) {
    static final String COLUMNS = "snapds.hive.columns";
    static final String COLUMN_TYPES = "snapds.hive.column.types";

    static TableJobSettings of(JobConf job) throws IOException {
      String dataset = job.get(HiveTableProperties.DATASET);
      if (dataset == null) {
        throw new IOException("job has no " + HiveTableProperties.DATASET + ": is the table STORED BY "
            + SnapshotStorageHandler.class.getName() + "?");
      }
      Properties props = new Properties();
      props.setProperty(HiveTableProperties.DATASET, dataset);
      String mapping = job.get(HiveTableProperties.COLUMNS_MAPPING);
      try {
        if (mapping == null) {
          props.setProperty(serdeConstants.LIST_COLUMNS, job.get(COLUMNS, ""));
          SchemaTable t = SchemaTable.open(job, props);
          return new TableJobSettings(DatasetId.parse(dataset), t.keyColumn(), -1);
        }
        props.setProperty(HiveTableProperties.COLUMNS_MAPPING, mapping);
        ColumnMappings m = SnapshotSerDe.mappings(props, List.of(job.get(COLUMNS, "").split(",")),
            TypeInfoUtils.getTypeInfosFromTypeString(job.get(COLUMN_TYPES, "")));
        return new TableJobSettings(DatasetId.parse(dataset), new MappedKeyColumn(m.key()), m.keyIndex());
      } catch (SerDeException | RuntimeException e) {
        throw new IOException(e.getMessage(), e);
      }
    }
  }
}
