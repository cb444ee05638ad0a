package io.snapds.spark;

import io.snapds.dataset.read.DiffSplit;
import org.apache.spark.sql.connector.read.InputPartition;

/** One {@link DiffSplit}: the same user keys of both pinned snapshots, placed on the newer side's region server. */
record DiffInputPartition(DiffSplit split) implements InputPartition {
  @Override
  public String[] preferredLocations() {
    return split.locations();
  }
}
