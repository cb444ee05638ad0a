package io.snapds.events;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotRow;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;

/** The built-in {@link AuditCheck}s of an {@link AuditGate}. */
public final class AuditChecks {
  private AuditChecks() {
  }

  /**
   * Passes when the staged snapshot's row count is within {@code maxChange} (a fraction: 0.2 is
   * 20%) of the row count of the snapshot it was staged on ({@link SnapshotInfo#parentId()}), both
   * read from the snapshots' records (no scan). A first snapshot (staged on none) passes. A base
   * whose record is gone (pruned past the history horizon) fails: there is nothing to compare with.
   *
   * @param maxChange the largest allowed change relative to the base's count, {@code >= 0}
   */
  public static AuditCheck rowCountWithin(double maxChange) {
    checkArgument(maxChange >= 0 && Double.isFinite(maxChange), "maxChange must be a finite fraction >= 0, got %s",
        maxChange);
    return (dataset, staged) -> {
      Optional<SnapshotId> baseId = staged.parentId();
      if (baseId.isEmpty()) {
        return CheckResult.pass("row count " + staged.rowCount() + ": no base snapshot to compare with");
      }
      long base;
      try {
        base = dataset.snapshot(baseId.get()).rowCount();
      } catch (SnapshotNotAvailableException gone) {
        return CheckResult.fail("row count " + staged.rowCount() + ": the base snapshot " + baseId.get()
            + " is no longer recorded (" + gone.getMessage() + ")");
      }
      double low = base * (1 - maxChange);
      double high = base * (1 + maxChange);
      String what = "row count " + staged.rowCount() + " against " + base + " in base snapshot " + baseId.get()
          + " (allowed " + (long) Math.ceil(low) + ".." + (long) Math.floor(high) + ")";
      return staged.rowCount() >= low && staged.rowCount() <= high ? CheckResult.pass(what) : CheckResult.fail(what);
    };
  }

  /**
   * Passes when every row of the staged snapshot has a non-empty value in column
   * {@code family:qualifier}. This is how a null shows in the row model: a row key is never empty
   * (HBase refuses one), and a dataset with a schema stores a null field as no cell (design.md,
   * "Schemas": a non-key field is the column {@code <first family>:<field name>}; key fields are
   * never null). Cost: one scan of every row of the snapshot (every column, since a scan narrowed
   * to the column would not return the rows that lack it).
   */
  public static AuditCheck noMissingValue(String family, String qualifier) {
    checkArgument(family != null && !family.isEmpty(), "family must not be empty, got '%s'", family);
    checkNotNull(qualifier, "qualifier must not be null");
    byte[] f = Bytes.toBytes(family);
    byte[] q = Bytes.toBytes(qualifier);
    String column = family + ":" + qualifier;
    return (dataset, staged) -> {
      long rows = 0;
      long missing = 0;
      String first = null;
      try (RowScanner scanner = dataset.readSnapshot(staged.id()).scan(RowScan.all())) {
        for (SnapshotRow r : scanner) {
          rows++;
          byte[] v = r.value(f, q);
          if (v == null || v.length == 0) {
            missing++;
            if (first == null) {
              first = r.keyAsString();
            }
          }
        }
      }
      return missing == 0 ? CheckResult.pass("no missing " + column + " in " + rows + " rows")
          : CheckResult.fail(missing + " of " + rows + " rows have no " + column + " (first: key '" + first + "')");
    };
  }
}
