package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DatasetUnavailableException;
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
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Found by the protocol simulation. Seed 5 with every fault: truncate() emptied the data table
 * before the metadata table, so a split reader that ended in between read none of its snapshot's
 * rows, found the snapshot's record still there, and returned a short result with no error. Seed
 * 14 with every fault: a truncate cut off after emptying its first table (the metadata table,
 * properties row included) left a dataset nobody could open, nor truncate again.
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
    assertFalse(outcomes.isEmpty(), "a read after each table's truncation: " + outcomes);
    for (String o : outcomes) {
      assertTrue(o.endsWith(": 50 rows") || o.contains("error"), "every row or a typed error, got " + outcomes);
    }
  }

  @Test
  void aTruncateCutOffAfterItsFirstTableLeavesADatasetThatOpensRefusesBuildsAndIsFinishedByRunningItAgain() {
    DatasetProperties props = DatasetProperties.builder().build();
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("truncut"), props);
    SnapshotInfo before = Fixtures.writeAndCommit(ds.newSnapshot().begin(), "r", 20);
    long eventsBefore = ds.events(0, 100).size();
    // the process dies right after HBase emptied the first table it truncates
    Connection dying = hookTruncates(cluster.connection(), table -> {
      throw new IllegalStateException("the truncating process died");
    });
    IllegalStateException died = assertThrows(IllegalStateException.class,
        () -> new CompositeDatasetAdmin(ds.id(), dying, cluster.txClient()).truncate());
    assertEquals("the truncating process died", died.getMessage());

    SnapshotDataset reopened = cluster.datasets().open(ds.id()); // the properties are still there
    assertEquals(Optional.empty(), reopened.currentSnapshot(), "the old current snapshot is gone");
    DatasetUnavailableException refused = assertThrows(DatasetUnavailableException.class,
        () -> reopened.newSnapshot().begin(), "no build begins in a dataset whose truncate did not finish");
    assertTrue(refused.getMessage().contains("run truncate() again"), refused.getMessage());

    cluster.datasets().admin(ds.id()).truncate(); // what its operator does
    assertEquals(props, cluster.datasets().admin(ds.id()).properties());
    SnapshotInfo after = Fixtures.writeAndCommit(reopened.newSnapshot().begin(), "s", 5);
    assertTrue(after.keyNumber() > before.keyNumber(), "key ranges are never given twice: " + before.keyNumber()
        + " then " + after.keyNumber());
    Fixtures.Observation read = Fixtures.observe(reopened.readCurrent());
    assertEquals(5, read.rows(), "a reader gets the new snapshot's rows, none of the old: " + read);
    assertEquals(List.of("s"), read.labels());
    List<DatasetEvent> events = reopened.events(0, 100);
    for (int i = 0; i < events.size(); i++) {
      assertEquals(i + 1, events.get(i).sequence(), "event sequences keep going, without a gap: " + events);
    }
    assertEquals(List.of(DatasetEvent.Type.TRUNCATED, DatasetEvent.Type.TRUNCATED, DatasetEvent.Type.PUBLISHED),
        events.subList((int) eventsBefore, events.size()).stream().map(DatasetEvent::type).toList());
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
