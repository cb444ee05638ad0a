package io.snapds.spark;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.read.ReadSplit;
import io.snapds.dataset.read.SnapshotRead;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructType;

/**
 * One scan of a {@link SnapshotTable}'s snapshot. Planning its partitions (once per scan, in the
 * driver, as the query runs) pins the snapshot through the core's read plan
 * ({@link SnapshotRead#pin}) and holds the pin for the query ({@link ExecutionPins}); the splits of its
 * key ranges ({@link SnapshotRead#planSplits}) become one input partition each, so every task,
 * retry and speculative attempt reads the same snapshot. Its statistics are the snapshot record's
 * row and byte counts (of the whole snapshot, before key ranges).
 */
final class SnapshotScan implements Scan, Batch, SupportsReportStatistics {
  static final String ROWS_FETCHED = "rowsFetched";

  private final SnapshotTable table;
  private final StructType required;
  private final KeyRanges ranges;
  private InputPartition[] partitions;

  SnapshotScan(SnapshotTable table, StructType required, KeyRanges ranges) {
    this.table = table;
    this.required = required;
    this.ranges = ranges;
  }

  /** The key ranges this scan reads (for tests and {@link #description()}). */
  KeyRanges keyRanges() {
    return ranges;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "snapds " + table.id() + table.snapshot().map(s -> " @ " + s.id()).orElse(" (no snapshot)")
        + " keys " + ranges + " columns " + String.join(",", required.fieldNames());
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (partitions != null) {
      return partitions;
    }
    Optional<SnapshotInfo> snapshot = table.snapshot();
    if (snapshot.isEmpty() || ranges.ranges().isEmpty()) {
      partitions = new InputPartition[0];
      return partitions;
    }
    JobDatasets datasets = null;
    try {
      datasets = JobDatasets.open(table.conf());
      SnapshotDataset dataset = datasets.open(table.id());
      // the id the table was loaded at, pinned now: an explicit pin fails if it was cleaned since
      SnapshotRead read = SnapshotRead.pin(datasets.connection(), dataset,
          SnapshotSelector.snapshot(snapshot.get().id()), "spark:" + table.name(), table.options().pinTtl());
      ExecutionPins.hold(read, dataset, datasets);
      datasets = null; // closed with the pin
      List<RowScan> scans = new ArrayList<>();
      for (KeyRanges.Range r : ranges.ranges()) {
        scans.add(r.toRowScan());
      }
      List<ReadSplit> splits = read.planSplits(scans);
      InputPartition[] out = new InputPartition[splits.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = new SnapshotInputPartition(splits.get(i));
      }
      partitions = out;
      return partitions;
    } catch (IOException e) {
      throw new UncheckedIOException("planning the splits of " + table + " failed", e);
    } finally {
      if (datasets != null) {
        try {
          datasets.close();
        } catch (IOException e) {
          // the planning failed already
        }
      }
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new SnapshotReaderFactory(new SerializableConf(table.conf()), table.datasetSchema().toStringWithIds(),
        table.family(), required.fieldNames());
  }

  @Override
  public Statistics estimateStatistics() {
    Optional<SnapshotInfo> s = table.snapshot();
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(s.map(SnapshotInfo::byteCount).orElse(0L));
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.of(s.map(SnapshotInfo::rowCount).orElse(0L));
      }
    };
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return new CustomMetric[] {new RowsFetched()};
  }

  /**
   * Rows the scan's tasks read from HBase: what the key ranges bound. Public only because Spark
   * makes it by reflection in the driver.
   */
  @org.apache.yetus.audience.InterfaceAudience.Private
  public static final class RowsFetched extends CustomSumMetric {
    @Override
    public String name() {
      return ROWS_FETCHED;
    }

    @Override
    public String description() {
      return "rows fetched from the snapshot";
    }
  }
}
