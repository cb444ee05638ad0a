package io.snapds.hive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.TableScanOperator;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.OperatorDesc;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;
import org.apache.hadoop.mapred.JobConf;

/**
 * Hive's MapReduce engine reads a table once per map stage and hands every row to each reference
 * of the table in that stage (a self-join: {@code t a JOIN t b}). Two references at different
 * snapshots ({@code FOR SYSTEM_VERSION AS OF}) cannot share one scan, so such a stage must fail
 * instead of giving both references the same rows. Hive avoids the shared scan when it runs the
 * join as a map join (the small side is read on its own); a table pinned to the older snapshot
 * ({@code snapds.snapshot.id}) avoids it always.
 */
final class SharedScanGuard {
  private SharedScanGuard() {}

  /** @throws IOException naming the references when one scan would serve two snapshots */
  static void check(JobConf job, Path[] tablePaths) throws IOException {
    MapWork work;
    try {
      work = Utilities.getMapWork(job);
    } catch (RuntimeException e) {
      return; // no MapReduce plan (a fetch task): each reference is read on its own
    }
    if (work == null) {
      return;
    }
    for (Path path : tablePaths) {
      List<String> aliases = aliases(work.getPathToAliases(), path);
      if (aliases.size() < 2) {
        continue;
      }
      Set<String> versions = new HashSet<>();
      List<String> described = new ArrayList<>();
      for (String alias : aliases) {
        Operator<? extends OperatorDesc> op = work.getAliasToWork().get(alias);
        if (op instanceof TableScanOperator) {
          TableScanDesc scan = ((TableScanOperator) op).getConf();
          String version = scan.getAsOfVersion() != null ? "version " + scan.getAsOfVersion()
              : scan.getSnapshotRef() != null ? "ref " + scan.getSnapshotRef()
              : scan.getAsOfTimestamp() != null ? "time " + scan.getAsOfTimestamp() : "the query's snapshot";
          versions.add(version);
          described.add(alias + " at " + version);
        }
      }
      if (versions.size() > 1) {
        throw new IOException("one map stage reads table " + path.getName() + " at different snapshots ("
            + String.join(", ", described) + "), but Hive's MapReduce engine gives all references of a table in a "
            + "stage the same scan. Create a second table pinned with TBLPROPERTIES ('"
            + HiveTableProperties.SNAPSHOT_ID + "'='<id>') and join with it, or let the join run as a map join "
            + "(hive.auto.convert.join=true)");
      }
    }
  }

  private static List<String> aliases(Map<Path, List<String>> pathToAliases, Path path) {
    List<String> aliases = pathToAliases.get(path);
    if (aliases == null) {
      aliases = pathToAliases.get(Path.getPathWithoutSchemeAndAuthority(path));
    }
    return aliases == null ? List.of() : aliases;
  }
}
