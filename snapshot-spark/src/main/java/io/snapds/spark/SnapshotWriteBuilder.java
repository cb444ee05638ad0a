package io.snapds.spark;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsOverwrite;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.Filter;

/**
 * A write replaces the whole dataset with one new snapshot: {@code mode("overwrite")}, SQL
 * {@code INSERT OVERWRITE}, {@code writeTo(...).overwrite(lit(true))}, {@code createOrReplace()}.
 * An overwrite of part of the rows (a condition other than true) and appends are refused: a
 * snapshot holds only the rows its write wrote.
 */
final class SnapshotWriteBuilder implements WriteBuilder, SupportsTruncate, SupportsOverwrite {
  private final SnapshotTable table;
  private final LogicalWriteInfo info;
  /** Whether Spark asked to replace every row (truncate, or overwrite where true). */
  private boolean replacesAll;

  SnapshotWriteBuilder(SnapshotTable table, LogicalWriteInfo info) {
    this.table = table;
    this.info = info;
  }

  @Override
  public WriteBuilder truncate() {
    replacesAll = true;
    return this;
  }

  @Override
  public WriteBuilder overwrite(Filter[] filters) {
    for (Filter f : filters) {
      if (!(f instanceof AlwaysTrue)) {
        throw new IllegalArgumentException("cannot overwrite the rows of " + table.id() + " where " + f
            + ": a write replaces the whole dataset with a new snapshot; overwrite with condition true"
            + " (mode(\"overwrite\"), overwrite(lit(true)), INSERT OVERWRITE) and give every row");
      }
    }
    replacesAll = true;
    return this;
  }

  /**
   * @throws UnsupportedOperationException for an append (neither truncate nor overwrite asked):
   *     the new snapshot would hold only the appended rows, so the dataset's other rows would vanish
   */
  @Override
  public Write build() {
    if (!replacesAll) {
      throw new UnsupportedOperationException("cannot append to " + table.id() + ": a write replaces the whole"
          + " dataset with a new snapshot holding only the rows written; write every row with mode(\"overwrite\")"
          + " (INSERT OVERWRITE, overwrite(lit(true)))");
    }
    return new Write() {
      @Override
      public String description() {
        return "snapds new snapshot of " + table.id();
      }

      @Override
      public BatchWrite toBatch() {
        return new SnapshotBatchWrite(table, info);
      }
    };
  }
}
