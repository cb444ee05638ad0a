package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A dataset's metadata as a read-only table, as Iceberg offers its own: {@code snapds.ns.ds.snapshots}
 * (every snapshot record the metadata keeps), {@code .history} (the changes of the current
 * snapshot, oldest first) and {@code .tags} (each tag and its snapshot). Read once, in the driver,
 * when the table is loaded (one or two metadata reads); one partition holds the rows.
 */
final class MetadataTable implements SupportsRead {
  /** The metadata tables, by the name that follows the dataset's. */
  enum Kind { SNAPSHOTS, HISTORY, TAGS }

  private final DatasetId id;
  private final Kind kind;
  private final StructType schema;
  private final List<Object[]> rows;

  private MetadataTable(DatasetId id, Kind kind, StructType schema, List<Object[]> rows) {
    this.id = id;
    this.kind = kind;
    this.schema = schema;
    this.rows = rows;
  }

  /** The kind a table name names, or null when it names none. */
  static Kind kind(String name) {
    for (Kind k : Kind.values()) {
      if (k.name().toLowerCase(Locale.ROOT).equals(name)) {
        return k;
      }
    }
    return null;
  }

  static MetadataTable load(SnapdsOptions options, DatasetId id, Kind kind) {
    try (JobDatasets datasets = JobDatasets.open(options.hadoopConf()); SnapshotDataset ds = datasets.open(id)) {
      List<Object[]> rows = new ArrayList<>();
      StructType schema;
      switch (kind) {
        case SNAPSHOTS -> {
          schema = new StructType().add("snapshot_id", DataTypes.LongType, false)
              .add("state", DataTypes.StringType, false).add("created_at", DataTypes.TimestampType, false)
              .add("committed_at", DataTypes.TimestampType, true).add("row_count", DataTypes.LongType, false)
              .add("byte_count", DataTypes.LongType, false).add("writer", DataTypes.StringType, true)
              .add("run_id", DataTypes.StringType, true).add("parent_id", DataTypes.LongType, true)
              .add("schema_id", DataTypes.IntegerType, true).add("tags", DataTypes.StringType, true);
          List<SnapshotInfo> all = new ArrayList<>(ds.snapshots());
          all.sort(Comparator.comparingLong(s -> s.id().value()));
          for (SnapshotInfo s : all) {
            rows.add(new Object[] {s.id().value(), s.state().name(), s.createdAt(), s.committedAt().orElse(null),
                s.rowCount(), s.byteCount(), s.writer(), s.runId().orElse(null),
                s.parentId().map(SnapshotId::value).orElse(null), s.schemaId().orElse(null),
                s.tags().isEmpty() ? null : String.join(",", new TreeSet<>(s.tags()))});
          }
        }
        case HISTORY -> {
          schema = new StructType().add("at", DataTypes.TimestampType, false)
              .add("snapshot_id", DataTypes.LongType, false).add("reason", DataTypes.StringType, true);
          for (HistoryEntry h : ds.history()) {
            rows.add(new Object[] {h.at(), h.snapshot().value(), h.reason()});
          }
        }
        default -> {
          schema = new StructType().add("tag", DataTypes.StringType, false)
              .add("snapshot_id", DataTypes.LongType, false);
          List<Object[]> tags = new ArrayList<>();
          for (SnapshotInfo s : ds.snapshots()) {
            for (String t : s.tags()) {
              tags.add(new Object[] {t, s.id().value()});
            }
          }
          tags.sort(Comparator.comparing(r -> (String) r[0]));
          rows.addAll(tags);
        }
      }
      return new MetadataTable(id, kind, schema, rows);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the metadata of " + id + " failed", e);
    }
  }

  @Override
  public String name() {
    return id.namespace() + "." + id.name() + "." + kind.name().toLowerCase(Locale.ROOT);
  }

  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    Rows all = new Rows(toInternal(rows));
    return () -> new Scan() {
      @Override
      public StructType readSchema() {
        return schema;
      }

      @Override
      public Batch toBatch() {
        return new Batch() {
          @Override
          public InputPartition[] planInputPartitions() {
            return new InputPartition[] {all};
          }

          @Override
          public PartitionReaderFactory createReaderFactory() {
            return new RowsReaderFactory();
          }
        };
      }
    };
  }

  private static List<Object[]> toInternal(List<Object[]> rows) {
    List<Object[]> out = new ArrayList<>();
    for (Object[] r : rows) {
      Object[] v = new Object[r.length];
      for (int i = 0; i < r.length; i++) {
        Object x = r[i];
        v[i] = x instanceof String s ? UTF8String.fromString(s) : x instanceof Instant t ? SparkTypes.micros(t) : x;
      }
      out.add(v);
    }
    return out;
  }

  /** The rows, read in the driver, as one partition. */
  record Rows(List<Object[]> rows) implements InputPartition, Serializable {}

  private static final class RowsReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      List<Object[]> rows = ((Rows) partition).rows();
      return new PartitionReader<>() {
        private int next = -1;

        @Override
        public boolean next() {
          return ++next < rows.size();
        }

        @Override
        public InternalRow get() {
          return new GenericInternalRow(rows.get(next).clone());
        }

        @Override
        public void close() {}
      };
    }
  }
}
