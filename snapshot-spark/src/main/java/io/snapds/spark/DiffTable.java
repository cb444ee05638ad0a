package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The changes between two snapshots of a dataset as a read-only Spark table
 * ({@code option("diff.from", ...).option("diff.to", ...)}): column {@code change} (ADDED, REMOVED
 * or CHANGED), then the newer snapshot's columns (the key columns, and the value columns the diff
 * compares: option {@code diff.columns}, every one by default) holding the new row's values (the
 * old row's for REMOVED), then {@code old_<column>} for each value column, holding the old row's
 * values (null for ADDED). Both selectors are resolved to snapshot ids when the table is loaded;
 * each scan pins both by id when its partitions are planned ({@link DiffScan}).
 */
final class DiffTable implements SupportsRead {
  static final String CHANGE = "change";
  static final String OLD = "old_";

  private final SnapdsOptions options;
  private final Configuration conf;
  private final DatasetId id;
  private final SnapshotId from;
  private final SnapshotId to;
  private final Schema fromSchema;
  private final Schema toSchema;
  private final String family;
  private final List<Field> valueFields;
  private final RowScan columns;
  private final StructType sparkSchema;

  private DiffTable(SnapdsOptions options, Configuration conf, DatasetId id, SnapshotId from, SnapshotId to,
      Schema fromSchema, Schema toSchema, String family, List<Field> valueFields, RowScan columns) {
    this.options = options;
    this.conf = conf;
    this.id = id;
    this.from = from;
    this.to = to;
    this.fromSchema = fromSchema;
    this.toSchema = toSchema;
    this.family = family;
    this.valueFields = valueFields;
    this.columns = columns;
    this.sparkSchema = sparkSchema(toSchema, valueFields);
  }

  /**
   * Resolves both selectors (options {@code diff.from}, {@code diff.to}) and checks that the two
   * snapshots' schemas compare on the diff's columns (a few metadata reads, one HBase connection).
   *
   * @throws IllegalArgumentException naming the option and value that is not valid
   * @throws io.snapds.dataset.SnapshotNotAvailableException if a selector names no readable snapshot
   * @throws io.snapds.dataset.schema.SchemaException if a compared field was renamed or retyped between them
   */
  static DiffTable load(SnapdsOptions options) {
    SnapshotSelector[] sides = options.diffSelectors();
    List<String> asked = options.diffColumns();
    DatasetId id = options.dataset();
    Configuration conf = options.hadoopConf();
    try (JobDatasets datasets = JobDatasets.open(conf); SnapshotDataset dataset = datasets.open(id)) {
      SnapshotId from = sides[0].resolve(dataset);
      SnapshotId to = sides[1].resolve(dataset);
      Optional<Schema> fromSchema = dataset.schema(from);
      Optional<Schema> toSchema = dataset.schema(to);
      if (toSchema.isEmpty()) {
        toSchema = fromSchema.isPresent() ? fromSchema : dataset.schema();
      }
      if (toSchema.isEmpty()) {
        throw new IllegalArgumentException("dataset " + id + " (snapshots " + from + " and " + to + ") has no schema:"
            + " Spark reads typed datasets; set one (snapds schema set, or SnapshotDataset.setSchema)");
      }
      Schema schema = toSchema.get();
      String family = dataset.properties().families().get(0);
      List<Field> valueFields = new ArrayList<>();
      RowScan columns = RowScan.all();
      if (asked == null) {
        schema.fields().stream().filter(f -> !f.isKey()).forEach(valueFields::add);
      } else {
        for (String name : asked) {
          Field f = schema.findField(name).orElseThrow(() -> new IllegalArgumentException("invalid option '"
              + SnapdsOptions.DIFF_COLUMNS + "': no field '" + name + "' in the schema of snapshot " + to + " ("
              + schema + ")"));
          if (f.isKey()) {
            throw new IllegalArgumentException("invalid option '" + SnapdsOptions.DIFF_COLUMNS + "': '" + name
                + "' is a key field (always in a diff); name the value fields to compare");
          }
          if (!valueFields.contains(f)) {
            valueFields.add(f);
          }
        }
        valueFields.sort((a, b) -> Integer.compare(schema.indexOf(a.name()), schema.indexOf(b.name())));
        for (Field f : valueFields) {
          columns = columns.column(family, f.name());
        }
      }
      DiffRead.requireComparable(id, from, to, List.of(fromSchema, toSchema), columns);
      return new DiffTable(options, conf, id, from, to, fromSchema.orElse(schema), schema, family,
          List.copyOf(valueFields), columns);
    } catch (IOException e) {
      throw new UncheckedIOException("opening dataset " + id + " failed", e);
    }
  }

  private static StructType sparkSchema(Schema schema, List<Field> valueFields) {
    List<StructField> out = new ArrayList<>();
    out.add(new StructField(CHANGE, DataTypes.StringType, false, Metadata.empty()));
    for (Field f : schema.fields()) {
      if (f.isKey() || valueFields.contains(f)) {
        out.add(new StructField(f.name(), SparkTypes.toSpark(f.type()), !f.isKey(), meta(f)));
      }
    }
    for (Field f : valueFields) {
      out.add(new StructField(OLD + f.name(), SparkTypes.toSpark(f.type()), true, Metadata.empty()));
    }
    Set<String> names = new HashSet<>();
    for (StructField f : out) {
      if (!names.add(f.name())) {
        throw new IllegalArgumentException("the diff's column '" + f.name() + "' is also a field of the dataset's"
            + " schema (" + schema + "): name the other value fields in option '" + SnapdsOptions.DIFF_COLUMNS + "'");
      }
    }
    return new StructType(out.toArray(new StructField[0]));
  }

  private static Metadata meta(Field f) {
    return new MetadataBuilder().putBoolean(SparkTypes.KEY, f.isKey()).putLong(SparkTypes.FIELD_ID, f.id()).build();
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

  SnapshotId from() {
    return from;
  }

  SnapshotId to() {
    return to;
  }

  Schema fromSchema() {
    return fromSchema;
  }

  /** The newer snapshot's schema: the table's columns, and the key predicates pushed down. */
  Schema toSchema() {
    return toSchema;
  }

  String family() {
    return family;
  }

  /** The columns the diff compares (no key range): every column, or those of option {@code diff.columns}. */
  RowScan compared() {
    return columns;
  }

  @Override
  public String name() {
    return id.namespace() + "." + id.name() + " diff " + from + ".." + to;
  }

  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return sparkSchema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    return new DiffScanBuilder(this);
  }

  @Override
  public String toString() {
    return "snapds " + id + " diff " + from + " -> " + to;
  }
}
