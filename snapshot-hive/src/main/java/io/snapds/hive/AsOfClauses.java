package io.snapds.hive;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hive.common.type.TimestampTZUtil;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.TableScanOperator;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.hooks.ReadEntity;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.apache.hadoop.hive.ql.parse.SemanticException;
import org.apache.hadoop.hive.ql.plan.OperatorDesc;

/**
 * Resolves and pins, when the query is compiled, the snapshots its {@code FOR SYSTEM_VERSION AS
 * OF} and {@code FOR SYSTEM_TIME AS OF} clauses and its tag references ({@code db.table.tag_<name>}) name: Hive 4.1 hands these clauses to storage
 * handlers only when a job reads the table, so without this a bad id fails only then. Run from
 * {@link SnapshotQueryHook} as a semantic analyzer hook. The input format later finds the same
 * resolution in {@link QueryPins}.
 */
final class AsOfClauses {
  private AsOfClauses() {}

  static void resolve(HiveConf conf, List<Task<?>> rootTasks, Set<ReadEntity> inputs) throws SemanticException {
    List<Table> tables = new ArrayList<>();
    collect(rootTasks, new HashSet<>(), tables);
    for (ReadEntity input : inputs) {
      if (input.getType() == ReadEntity.Type.TABLE && input.getTable() != null) {
        tables.add(input.getTable());
      }
    }
    for (Table table : tables) {
      if (!(table.getStorageHandler() instanceof SnapshotStorageHandler)) {
        continue;
      }
      SnapshotSelector selector = selector(conf, table);
      if (selector == null) {
        continue;
      }
      DatasetId dataset = DatasetId.parse(table.getParameters().get(HiveTableProperties.DATASET));
      try {
        if (SnapshotSettings.diff(table.getParameters()::get, conf).isPresent()) {
          throw new IllegalArgumentException("the table reads a diff (" + HiveTableProperties.DIFF_FROM + ", "
              + HiveTableProperties.DIFF_TO + "), which reads two snapshots: leave the clause out, or unset the diff"
              + " settings to read one snapshot");
        }
        QueryPins.resolve(conf, dataset, selector);
      } catch (SnapshotDatasetException | IllegalArgumentException e) {
        throw new SemanticException("table " + table.getFullyQualifiedName() + " " + clause(table) + ": "
            + e.getMessage(), e);
      }
    }
  }

  /** The clause's selection, as the input format will see it; null without a clause. */
  static SnapshotSelector selector(HiveConf conf, Table table) {
    if (table.getAsOfVersion() != null) {
      return SnapshotSelector.snapshot(SnapshotId.parse(table.getAsOfVersion()));
    }
    if (table.getSnapshotRef() != null) {
      return SnapshotSettings.fromRef(table.getFullyQualifiedName(), table.getSnapshotRef());
    }
    if (table.getAsOfTimestamp() != null) {
      // as HiveInputFormat converts it for the job: in the session's time zone
      long millis = TimestampTZUtil.parse(table.getAsOfTimestamp(), conf.getLocalTimeZone()).toEpochMilli();
      return SnapshotSelector.asOf(Instant.ofEpochMilli(millis));
    }
    return null;
  }

  private static String clause(Table table) {
    return table.getAsOfVersion() != null ? "FOR SYSTEM_VERSION AS OF " + table.getAsOfVersion()
        : table.getSnapshotRef() != null ? "(ref " + table.getSnapshotRef() + ")"
        : "FOR SYSTEM_TIME AS OF '" + table.getAsOfTimestamp() + "'";
  }

  private static void collect(Collection<Task<?>> tasks, Set<Task<?>> seen, List<Table> tables) {
    if (tasks == null) {
      return;
    }
    for (Task<?> task : tasks) {
      if (!seen.add(task)) {
        continue;
      }
      Collection<Operator<? extends OperatorDesc>> tops = task.getTopOperators();
      if (tops != null) {
        for (Operator<? extends OperatorDesc> op : tops) {
          if (op instanceof TableScanOperator && ((TableScanOperator) op).getConf().getTableMetadata() != null) {
            tables.add(((TableScanOperator) op).getConf().getTableMetadata());
          }
        }
      }
      collect(task.getDependentTasks(), seen, tables);
      collect(task.getChildTasks(), seen, tables);
    }
  }
}
