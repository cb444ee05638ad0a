package io.snapds.spark;

import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Column pruning and key-range pushdown ({@link KeyRanges}, on the newer snapshot's key fields)
 * for one scan of a {@link DiffTable}. Pruning decodes fewer columns; it does not change which
 * columns the diff compares (option {@code diff.columns}), so a query's rows do not depend on the
 * columns it selects.
 */
final class DiffScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
  private final DiffTable table;
  private StructType required;
  private KeyRanges ranges = KeyRanges.all();

  DiffScanBuilder(DiffTable table) {
    this.table = table;
    this.required = table.schema();
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    this.required = requiredSchema;
  }

  /** Every filter stays with Spark too; the key ranges only read fewer rows of both snapshots. */
  @Override
  public Filter[] pushFilters(Filter[] filters) {
    ranges = KeyRanges.of(table.toSchema(), filters);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return ranges.pushed().toArray(new Filter[0]);
  }

  @Override
  public Scan build() {
    return new DiffScan(table, required, ranges);
  }
}
