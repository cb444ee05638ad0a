package io.snapds.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code spark.read.format("snapds")} and {@code df.write.format("snapds")}: a snapshot dataset
 * named by option {@code dataset} ({@code namespace:name}), at the snapshot that options
 * {@code version}, {@code timestamp} or {@code tag} select (the current one by default); or, with
 * options {@code diff.from} and {@code diff.to}, the changes between two snapshots. See
 * docs/spark.md for every option.
 */
public final class SnapshotTableProvider implements TableProvider, DataSourceRegister {
  /** The format name. */
  public static final String NAME = "snapds";

  @Override
  public String shortName() {
    return NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return load(new SnapdsOptions(options.asCaseSensitiveMap())).schema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return load(new SnapdsOptions(properties));
  }

  /** A diff ({@link DiffTable}) when option {@code diff.from} or {@code diff.to} is set, else one snapshot. */
  @SuppressWarnings("deprecation")
  private static Table load(SnapdsOptions options) {
    return options.isDiff() ? DiffTable.load(options) : SnapshotTable.load(options);
  }
}
