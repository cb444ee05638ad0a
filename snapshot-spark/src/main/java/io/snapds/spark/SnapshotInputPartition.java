package io.snapds.spark;

import io.snapds.dataset.read.ReadSplit;
import org.apache.spark.sql.connector.read.InputPartition;

/** One {@link ReadSplit}: one region's part of the pinned snapshot, placed on its region server. */
record SnapshotInputPartition(ReadSplit split) implements InputPartition {
  @Override
  public String[] preferredLocations() {
    return split.locations();
  }
}
