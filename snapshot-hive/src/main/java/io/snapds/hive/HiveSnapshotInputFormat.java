package io.snapds.hive;

import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.SnapshotRead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 *
 * <p>A table that reads a diff ({@link HiveTableProperties#DIFF_FROM}) gets the core's diff plan
 * instead ({@link DiffRead}): one {@link HiveDiffSplit} per piece between region starts of
 * either snapshot, within the key ranges, each read by a {@link HiveDiffRecordReader}.
 */
public final class HiveSnapshotInputFormat implements InputFormat<ImmutableBytesWritable, HiveSnapshotRow> {
  private static final int CACHING = 500;

  @Override
  public InputSplit[] getSplits(JobConf job, int numSplits) throws IOException {
    TableJobSettings table = TableJobSettings.of(job);
    try {
      Optional<DiffRead> diff = diffForScan(job, table.dataset());
      SnapshotRead read = diff.isPresent() ? null : readForScan(job, table.dataset());
      List<KeyRange> ranges = new KeyPredicates(table.key())
          .rangesOf(job.get(TableScanDesc.FILTER_EXPR_CONF_STR));
      Path[] paths = FileInputFormat.getInputPaths(job);
      SharedScanGuard.check(job, paths);
      Path tablePath = paths.length > 0 ? paths[0] : new Path("/" + table.dataset().namespace() + "/" + table.dataset().name());
      List<RowScan> scans = ranges.stream().map(r -> RowScan.all().range(r.start(), r.stop())).toList();
      if (diff.isPresent()) {
        // one plan per key range (DiffRead cuts one range): the ranges are disjoint and in key order
        List<InputSplit> splits = new ArrayList<>();
        for (RowScan scan : scans) {
          diff.get().planSplits(scan).forEach(s -> splits.add(new HiveDiffSplit(tablePath, s)));
        }
        return splits.toArray(InputSplit[]::new);
      }
      return read.planSplits(scans).stream().map(split -> new HiveSnapshotSplit(tablePath, split)).toArray(InputSplit[]::new);
    } catch (SnapshotDatasetException | IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * The read plan of this scan's diff, when the table reads one: the two snapshots the storage
   * handler pinned when the query was compiled (the pins are held there, see {@link QueryPins}),
   * or, used outside Hive's planner, the session's {@code snapds.diff.from}/{@code .to} resolved
   * and pinned now. Empty when the table reads one snapshot.
   *
   * @throws IllegalArgumentException when the scan also has an AS OF clause or tag reference
   */
  static Optional<DiffRead> diffForScan(JobConf job, DatasetId dataset) {
    String from = job.get(HiveTableProperties.PINNED_DIFF_FROM);
    String to = job.get(HiveTableProperties.PINNED_DIFF_TO);
    Optional<SnapshotSettings.Diff> unresolved = Optional.empty();
    if (from == null && to == null) {
      unresolved = SnapshotSettings.diff(new Properties(), job);
      if (unresolved.isEmpty()) {
        return Optional.empty();
      }
    } else if (from == null || from.isBlank() || to == null || to.isBlank()) {
      return Optional.empty(); // the storage handler found no diff for this table
    }
    String clause = asOfClause(job);
    if (clause != null) {
      throw new IllegalArgumentException("table over " + dataset + " reads a diff (" + HiveTableProperties.DIFF_FROM
          + ", " + HiveTableProperties.DIFF_TO + ") and " + clause + ": a diff reads two snapshots, so leave the"
          + " clause out, or unset the diff settings to read one snapshot");
    }
    if (unresolved.isPresent()) {
      return Optional.of(DiffRead.of(QueryPins.read(job, dataset, unresolved.get().from()),
          QueryPins.read(job, dataset, unresolved.get().to())));
    }
    return Optional.of(DiffRead.of(QueryPins.pinned(job, dataset, SnapshotId.parse(from)),
        QueryPins.pinned(job, dataset, SnapshotId.parse(to))));
  }

  /** The scan's AS OF clause or tag reference, as the user wrote it; null without one. */
  private static String asOfClause(JobConf job) {
    String version = job.get(TableScanDesc.AS_OF_VERSION);
    String time = job.get(TableScanDesc.AS_OF_TIMESTAMP);
    String ref = job.get(TableScanDesc.SNAPSHOT_REF);
    return version != null && !version.isBlank() ? "FOR SYSTEM_VERSION AS OF " + version
        : ref != null && !ref.isBlank() ? "the reference " + ref
        : time != null && !time.isBlank() ? "FOR SYSTEM_TIME AS OF '" + time + "'" : null;
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
    TableJobSettings table = TableJobSettings.of(job);
    if (split instanceof HiveDiffSplit d) {
      // a change is judged on the table's columns, whichever the query uses, so that every query
      // of the diff sees the same changes (a schema table's are all of its cells)
      RowScan projection = RowScan.all().caching(CACHING);
      for (RowScan.Column c : table.columns()) {
        projection = projection.column(c.family(), c.qualifier());
      }
      return new HiveDiffRecordReader(DatasetConnections.datasets(job).connection(), d.delegate(), projection, reporter);
    }
    HiveSnapshotSplit s = (HiveSnapshotSplit) split;
    // a schema table decodes whole rows (a non-null field needs its cell), so it never fetches keys only
    boolean keysOnly = table.keyIndex() >= 0 && !ColumnProjectionUtils.isReadAllColumns(job)
        && ColumnProjectionUtils.getReadColumnIDs(job).stream().allMatch(i -> i == table.keyIndex());
    return new HiveSnapshotRecordReader(DatasetConnections.datasets(job).connection(), s.delegate(), keysOnly, CACHING,
        reporter);
  }

  /**
   * The table settings the storage handler put into the job.
   *
   * @param keyIndex the key column's index, or -1 for a schema table (see getRecordReader)
   * @param columns the cells the mapping reads; empty for a schema table (whole rows)
   */
  record TableJobSettings(DatasetId dataset, KeyColumn key, int keyIndex, List<RowScan.Column> columns) {
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
          return new TableJobSettings(DatasetId.parse(dataset), t.keyColumn(), -1, List.of());
        }
        props.setProperty(HiveTableProperties.COLUMNS_MAPPING, mapping);
        ColumnMappings m = SnapshotSerDe.mappings(props, List.of(job.get(COLUMNS, "").split(",")),
            TypeInfoUtils.getTypeInfosFromTypeString(job.get(COLUMN_TYPES, "")));
        List<RowScan.Column> cells = m.columns().stream().filter(ColumnMapping::isCell)
            .map(c -> new RowScan.Column(c.family(), c.qualifier())).toList();
        return new TableJobSettings(DatasetId.parse(dataset), new MappedKeyColumn(m.key()), m.keyIndex(), cells);
      } catch (SerDeException | RuntimeException e) {
        throw new IOException(e.getMessage(), e);
      }
    }
  }
}
