package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.read.ReadSplit;
import io.snapds.dataset.read.SplitPlanner;
import io.snapds.dataset.read.SplitReader;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Found by the protocol simulation (seed 5 with every fault): truncate() emptied the data table
 * before the metadata table, so a split reader that ended in between read none of its snapshot's
 * rows, found the snapshot's record still there, and returned a short result with no error.
 */
@ExtendWith(MiniClusterExtension.class)
class TruncateNeverGivesAShortReadIT {
  private final MiniCluster cluster = MiniCluster.get();

  @Test
  void aSplitReadBetweenTheStepsOfATruncateGetsEveryRowOrATypedError() throws IOException {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("truncread"),
        DatasetProperties.builder().build());
    SnapshotInfo s = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "r", 50);
    SnapshotKeys keys = ds.keys(s.id());
    List<ReadSplit> splits = SplitPlanner.plan(cluster.connection(), ds.id(), keys, RowScan.all());
    List<String> outcomes = new ArrayList<>();
    // after each table's truncation (of the three, in the admin's order), a split job runs
    Connection hooked = hookTruncates(cluster.connection(), table -> outcomes.add(table.getQualifierAsString()
        + ": " + readAll(splits)));
    new CompositeDatasetAdmin(ds.id(), hooked, cluster.txClient()).truncate();
    assertEquals(3, outcomes.size(), "one read after each table's truncation: " + outcomes);
    for (String o : outcomes) {
      assertTrue(o.endsWith(": 50 rows") || o.contains("error"), "every row or a typed error, got " + outcomes);
    }
  }

  private String readAll(List<ReadSplit> splits) {
    int rows = 0;
    try {
      for (ReadSplit split : splits) {
        try (SplitReader reader = SplitReader.open(cluster.connection(), split, RowScan.all(), false, "again")) {
          while (reader.next()) {
            rows++;
          }
        }
      }
    } catch (SnapshotDatasetException e) {
      return "error " + e.getClass().getSimpleName();
    } catch (IOException e) {
      return "error " + e;
    }
    return rows + " rows";
  }

  private static Connection hookTruncates(Connection real, java.util.function.Consumer<TableName> afterTruncate) {
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          Object result = invoke(real, method, args);
          if (method.getName().equals("getAdmin")) {
            Admin admin = (Admin) result;
            return Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                (p, m, a) -> {
                  Object r = invoke(admin, m, a);
                  if (m.getName().equals("truncateTable")) {
                    afterTruncate.accept((TableName) a[0]); // the table is enabled again, empty
                  }
                  return r;
                });
          }
          return result;
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
