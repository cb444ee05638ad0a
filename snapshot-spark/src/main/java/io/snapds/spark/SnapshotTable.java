package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * One snapshot dataset as a Spark table, at the snapshot its selector named when it was loaded
 * (the current one, or one by id, time or tag): every scan of this table reads that snapshot, and
 * pins it when its partitions are planned. Its schema is that snapshot's (the dataset's current
 * schema when it has no snapshot yet). Writes replace the whole dataset with one new snapshot.
 */
final class SnapshotTable implements SupportsRead, SupportsWrite {
  private final SnapdsOptions options;
  private final Configuration conf;
  private final DatasetId id;
  private final SnapshotSelector selector;
  private final Optional<SnapshotInfo> snapshot;
  private final Schema schema;
  private final String family;
  private final StructType sparkSchema;

  private SnapshotTable(SnapdsOptions options, Configuration conf, DatasetId id, SnapshotSelector selector,
      Optional<SnapshotInfo> snapshot, Schema schema, String family) {
    this.options = options;
    this.conf = conf;
    this.id = id;
    this.selector = selector;
    this.snapshot = snapshot;
    this.schema = schema;
    this.family = family;
    this.sparkSchema = SparkTypes.toSpark(schema);
  }

  /**
   * Resolves {@code selector} in the dataset (two or three metadata reads, one HBase connection).
   *
   * @throws io.snapds.dataset.DatasetNotFoundException if the dataset does not exist
   * @throws io.snapds.dataset.SnapshotNotAvailableException if the selector names no readable snapshot
   * @throws IllegalArgumentException if the dataset has no schema
   */
  static SnapshotTable load(SnapdsOptions options, DatasetId id, SnapshotSelector selector) {
    Configuration conf = options.hadoopConf();
    try (JobDatasets datasets = JobDatasets.open(conf); SnapshotDataset dataset = datasets.open(id)) {
      Optional<SnapshotId> snap = selector.isCurrent() ? dataset.currentSnapshot().map(SnapshotInfo::id)
          : Optional.of(selector.resolve(dataset));
      Optional<SnapshotInfo> info = snap.map(dataset::snapshot);
      Optional<Schema> schema = snap.flatMap(dataset::schema);
      if (schema.isEmpty()) {
        schema = dataset.schema();
      }
      if (schema.isEmpty()) {
        throw new IllegalArgumentException("dataset " + id + (snap.isPresent() ? " (snapshot " + snap.get() + ")" : "")
            + " has no schema: Spark reads and writes typed datasets; set one (snapds schema set, or"
            + " SnapshotDataset.setSchema)");
      }
      return new SnapshotTable(options, conf, id, selector, info, schema.get(), dataset.properties().families().get(0));
    } catch (IOException e) {
      throw new UncheckedIOException("opening dataset " + id + " failed", e);
    }
  }

  static SnapshotTable load(SnapdsOptions options) {
    return load(options, options.dataset(), options.selector());
  }

  DatasetId id() {
    return id;
  }

  SnapdsOptions options() {
    return options;
  }

  Configuration conf() {
    return conf;
  }

  SnapshotSelector selector() {
    return selector;
  }

  /** The snapshot every scan reads; empty when the dataset had none (a scan reads no rows). */
  Optional<SnapshotInfo> snapshot() {
    return snapshot;
  }

  Schema datasetSchema() {
    return schema;
  }

  String family() {
    return family;
  }

  @Override
  public String name() {
    return id.namespace() + "." + id.name();
  }

  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return sparkSchema;
  }

  /**
   * Read and write at the current snapshot; read only at a selected one (an id, time or tag: a
   * tag's table {@code snapds.ns.ds.tag_<name>}, or options {@code version}, {@code timestamp},
   * {@code tag}), since a write replaces the whole dataset, not that snapshot.
   */
  @Override
  public Set<TableCapability> capabilities() {
    if (!selector.isCurrent()) {
      return EnumSet.of(TableCapability.BATCH_READ);
    }
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE,
        TableCapability.OVERWRITE_BY_FILTER);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    return new SnapshotScanBuilder(this);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new SnapshotWriteBuilder(this, info);
  }

  @Override
  public String toString() {
    return "snapds " + id + snapshot.map(s -> " @ " + s.id()).orElse(" (no snapshot)");
  }
}
