package io.snapds.spark;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.DiffSplit;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * One scan of a {@link DiffTable}. Planning its partitions (once per scan, in the driver, as the
 * query runs) pins both snapshots by id through the core's read plan of a diff ({@link DiffRead#pin})
 * and holds both pins for the query ({@link ExecutionPins}); each key range's {@link DiffSplit}s (cut
 * where a region of either snapshot begins) become one input partition each, in key order.
 */
final class DiffScan implements Scan, Batch {
  private final DiffTable table;
  private final StructType required;
  private final KeyRanges ranges;
  private InputPartition[] partitions;

  DiffScan(DiffTable table, StructType required, KeyRanges ranges) {
    this.table = table;
    this.required = required;
    this.ranges = ranges;
  }

  KeyRanges keyRanges() {
    return ranges;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "snapds " + table.id() + " diff " + table.from() + " -> " + table.to() + " keys " + ranges
        + " compared " + (table.compared().columns().isEmpty() ? "all columns" : table.compared().columns())
        + " columns " + String.join(",", required.fieldNames());
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
    if (ranges.ranges().isEmpty()) {
      partitions = new InputPartition[0];
      return partitions;
    }
    JobDatasets datasets = null;
    try {
      datasets = JobDatasets.open(table.conf());
      SnapshotDataset dataset = datasets.open(table.id());
      // the ids the table was loaded at, pinned now: an explicit pin fails if it was cleaned since
      DiffRead read = DiffRead.pin(datasets.connection(), dataset, SnapshotSelector.snapshot(table.from()),
          SnapshotSelector.snapshot(table.to()), "spark-diff:" + table.id(), table.options().pinTtl());
      ExecutionPins.hold(read, dataset, datasets);
      datasets = null; // closed with the pins
      List<InputPartition> out = new ArrayList<>();
      for (KeyRanges.Range r : ranges.ranges()) {
        RowScan scan = table.compared().range(r.start(), r.stop());
        for (DiffSplit split : read.planSplits(scan)) {
          out.add(new DiffInputPartition(split));
        }
      }
      partitions = out.toArray(new InputPartition[0]);
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
    List<String> compared = new ArrayList<>();
    table.compared().columns().forEach(c -> compared.add(org.apache.hadoop.hbase.util.Bytes.toString(c.qualifier())));
    return new DiffReaderFactory(new SerializableConf(table.conf()), table.fromSchema().toStringWithIds(),
        table.toSchema().toStringWithIds(), table.family(), compared.toArray(new String[0]), required.fieldNames());
  }
}
