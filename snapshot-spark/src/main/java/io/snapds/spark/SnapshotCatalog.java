package io.snapds.spark;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.read.SnapshotSelector;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The snapshot datasets of one HBase cluster as a Spark catalog:
 * {@code spark.sql.catalog.snapds = io.snapds.spark.SnapshotCatalog}, its connection settings as
 * {@code spark.sql.catalog.snapds.<option>} (docs/spark.md). A dataset {@code ns:name} is the table
 * {@code snapds.ns.name}; {@code VERSION AS OF <id>}, {@code VERSION AS OF '<tag>'} and
 * {@code TIMESTAMP AS OF '<time>'} read an older snapshot, and {@code snapds.ns.name.tag_<tag>} the
 * snapshot a tag names. A table created here is a new dataset
 * with the table's columns as its schema: its key fields are table property {@code key}
 * (comma-separated column names, in key order), the first column when it is not set. Tables are
 * not altered or renamed here; namespaces are HBase namespaces.
 */
public final class SnapshotCatalog implements TableCatalog, SupportsNamespaces {
  /** Table property: the key columns, comma-separated, in key order. */
  public static final String KEY_PROPERTY = "key";
  /** The name of a tag's table in a dataset's namespace: {@code snapds.ns.ds.tag_<name>}. */
  static final String TAG_TABLE = "tag_";

  private String name;
  private Map<String, String> options = Map.of();

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    this.options = new HashMap<>(options.asCaseSensitiveMap());
  }

  @Override
  public String name() {
    return name;
  }

  private SnapdsOptions options() {
    return new SnapdsOptions(options);
  }

  private <T> T withDatasets(String what, Function<JobDatasets, T> action) {
    try (JobDatasets datasets = JobDatasets.open(options().hadoopConf())) {
      return action.apply(datasets);
    } catch (IOException e) {
      throw new UncheckedIOException(what + " failed", e);
    }
  }

  private static DatasetId id(Identifier ident) throws NoSuchTableException {
    if (ident.namespace().length != 1) {
      throw new NoSuchTableException(ident);
    }
    try {
      return DatasetId.of(ident.namespace()[0], ident.name());
    } catch (IllegalArgumentException e) {
      throw new NoSuchTableException(ident);
    }
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return withDatasets("listing datasets", d -> d.datasets().list().stream()
        .filter(id -> id.namespace().equals(namespace[0]))
        .map(id -> Identifier.of(new String[] {id.namespace()}, id.name()))
        .toArray(Identifier[]::new));
  }

  /**
   * A dataset ({@code snapds.ns.ds}), one of its metadata tables ({@code snapds.ns.ds.snapshots},
   * {@code .history}, {@code .tags}), or its snapshot tagged {@code name} ({@code snapds.ns.ds.tag_name}).
   *
   * @throws NoSuchTableException naming the table if the dataset, or the tag's readable snapshot, does not exist
   */
  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    if (ident.namespace().length == 2 && ident.name().startsWith(TAG_TABLE) && ident.name().length() > TAG_TABLE.length()) {
      DatasetId id;
      try {
        id = DatasetId.of(ident.namespace()[0], ident.namespace()[1]);
      } catch (IllegalArgumentException e) {
        throw new NoSuchTableException(ident);
      }
      try {
        return SnapshotTable.load(options(), id, SnapshotSelector.tag(ident.name().substring(TAG_TABLE.length())));
      } catch (DatasetNotFoundException | SnapshotNotAvailableException e) {
        throw new NoSuchTableException(ident); // no such dataset, tag, or readable tagged snapshot
      }
    }
    MetadataTable.Kind kind = MetadataTable.kind(ident.name());
    if (ident.namespace().length == 2 && kind != null) {
      DatasetId id;
      try {
        id = DatasetId.of(ident.namespace()[0], ident.namespace()[1]);
      } catch (IllegalArgumentException e) {
        throw new NoSuchTableException(ident);
      }
      try {
        return MetadataTable.load(options(), id, kind);
      } catch (DatasetNotFoundException e) {
        throw new NoSuchTableException(ident);
      }
    }
    return load(ident, SnapshotSelector.current());
  }

  /** {@code VERSION AS OF}: a snapshot id, or else a tag name. */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    String v = version.trim();
    return load(ident, v.matches("\\d+") ? SnapshotSelector.snapshot(SnapshotId.parse(v)) : SnapshotSelector.tag(v));
  }

  /** {@code TIMESTAMP AS OF}: the snapshot current at that time (Spark gives microseconds since the epoch). */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return load(ident, SnapshotSelector.asOf(Instant.EPOCH.plus(timestamp, ChronoUnit.MICROS)));
  }

  private Table load(Identifier ident, SnapshotSelector selector) throws NoSuchTableException {
    DatasetId id = id(ident);
    try {
      return SnapshotTable.load(options(), id, selector);
    } catch (DatasetNotFoundException e) {
      throw new NoSuchTableException(ident);
    }
  }

  @Override
  @SuppressWarnings("deprecation")
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    if (partitions.length > 0) {
      throw new IllegalArgumentException("a snapds table has no partitions (got " + Arrays.toString(partitions)
          + "): its rows are ordered by its key columns (table property '" + KEY_PROPERTY + "')");
    }
    DatasetId id;
    try {
      id = id(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalArgumentException("invalid table name " + ident + ": use <namespace>.<dataset>");
    }
    if (!namespaceExists(ident.namespace())) {
      throw new NoSuchNamespaceException(ident.namespace());
    }
    String keyProperty = properties.get(KEY_PROPERTY);
    List<String> keys = keyProperty == null || keyProperty.isBlank() ? List.of(schema.fieldNames()[0])
        : Arrays.stream(keyProperty.split(",")).map(String::trim).toList();
    Schema datasetSchema = SparkTypes.fromSpark(schema, keys);
    boolean created = withDatasets("creating " + id, d -> {
      if (d.datasets().exists(id)) {
        return false;
      }
      try (SnapshotDataset ds = d.datasets().create(id, DatasetProperties.defaults())) {
        ds.setSchema(datasetSchema);
      }
      return true;
    });
    if (!created) {
      throw new TableAlreadyExistsException(ident);
    }
    return SnapshotTable.load(options(), id, SnapshotSelector.current());
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("the snapds catalog does not alter tables: change a dataset's schema"
        + " with snapds schema (or SnapshotDataset.updateSchema)");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    DatasetId id;
    try {
      id = id(ident);
    } catch (NoSuchTableException e) {
      return false;
    }
    return withDatasets("dropping " + id, d -> d.datasets().exists(id) && d.datasets().admin(id).drop());
  }

  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent) {
    throw new UnsupportedOperationException("the snapds catalog does not rename datasets (" + oldIdent + ")");
  }

  @Override
  public String[][] listNamespaces() {
    return withDatasets("listing namespaces", d -> {
      TreeSet<String> names = new TreeSet<>();
      try (Admin admin = d.connection().getAdmin()) {
        for (NamespaceDescriptor n : admin.listNamespaceDescriptors()) {
          if (!n.getName().equals("hbase")) {
            names.add(n.getName());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      List<String[]> out = new ArrayList<>();
      names.forEach(n -> out.add(new String[] {n}));
      return out.toArray(new String[0][]);
    });
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return new String[0][];
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    if (namespace.length != 1) {
      return false;
    }
    return withDatasets("looking up namespace " + namespace[0], d -> {
      try (Admin admin = d.connection().getAdmin()) {
        admin.getNamespaceDescriptor(namespace[0]);
        return true;
      } catch (NamespaceNotFoundException e) {
        return false;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return Map.of();
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata) {
    if (namespace.length != 1) {
      throw new IllegalArgumentException("a snapds namespace is one name, got " + Arrays.toString(namespace));
    }
    withDatasets("creating namespace " + namespace[0], d -> {
      try (Admin admin = d.connection().getAdmin()) {
        admin.createNamespace(NamespaceDescriptor.create(namespace[0]).build());
        return null;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("the snapds catalog does not alter namespaces");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade) throws NoSuchNamespaceException,
      NonEmptyNamespaceException {
    Identifier[] tables = listTables(namespace);
    if (tables.length > 0 && !cascade) {
      throw new NonEmptyNamespaceException(namespace);
    }
    for (Identifier t : tables) {
      dropTable(t);
    }
    return withDatasets("dropping namespace " + namespace[0], d -> {
      d.datasets().dropNamespace(namespace[0]); // with the key numbers its drops left
      return true;
    });
  }
}
