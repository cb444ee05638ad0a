package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import io.snapds.dataset.testing.MiniClusterTxClientFactory;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The task side of Hive's {@code INSERT OVERWRITE}, without a Hive session: tasks find the snapshot
 * their query is building by its run id, and an attempt that outlives its query's publish (a
 * speculative attempt that lost, a task that was killed but whose process still runs) sends
 * nothing more into the published snapshot.
 */
@ExtendWith(MiniClusterExtension.class)
class HiveTaskWriterTest {
  private final MiniCluster cluster = MiniCluster.get();

  private JobConf taskConf(String queryId) {
    JobConf conf = new JobConf(cluster.configuration());
    conf.set(JobDatasets.TX_CLIENT_FACTORY, MiniClusterTxClientFactory.class.getName());
    conf.set(HiveConf.ConfVars.HIVE_QUERY_ID.varname, queryId);
    return conf;
  }

  private FileSinkOperator.RecordWriter taskWriter(JobConf conf, SnapshotDataset ds) throws IOException {
    Properties table = new Properties();
    table.setProperty(HiveTableProperties.DATASET, ds.id().toString());
    return new HiveSnapshotOutputFormat().getHiveRecordWriter(conf, null, SnapshotRowWritable.class, false, table,
        null);
  }

  private static SnapshotRowWritable row(String key, String value) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    NavigableMap<byte[], byte[]> cells = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    cells.put(Bytes.toBytes("v"), Bytes.toBytes(value));
    families.put(Bytes.toBytes("d"), cells);
    return new SnapshotRowWritable(new SnapshotRow(Bytes.toBytes(key), families));
  }

  private static List<String> rows(SnapshotDataset ds, SnapshotId id) {
    List<String> out = new ArrayList<>();
    try (RowScanner scanner = ds.readSnapshot(id).scan(RowScan.all())) {
      for (SnapshotRow r : scanner) {
        out.add(r.keyAsString() + "=" + Bytes.toString(r.value("d", "v")));
      }
    }
    return out;
  }

  @Test
  void anAttemptThatOutlivesItsQuerysPublishSendsNothingIntoThePublishedSnapshot() throws Exception {
    SnapshotDataset ds = cluster.datasets().create(MiniCluster.uniqueDataset("hivetask"),
        DatasetProperties.defaults());
    JobConf conf = taskConf("q-late-attempt");
    SnapshotId building = PendingInserts.begin(conf, ds.id(), false);

    FileSinkOperator.RecordWriter winner = taskWriter(conf, ds);
    FileSinkOperator.RecordWriter loser = taskWriter(conf, ds); // a second attempt of the same task
    for (int i = 0; i < 5; i++) {
      winner.write(row("k" + i, "v" + i));
    }
    winner.close(false);
    loser.write(row("k0", "late"));
    loser.write(row("k9", "late"));

    SnapshotInfo published = PendingInserts.commit("q-late-attempt").orElseThrow();
    assertEquals(building, published.id());

    IOException refused = assertThrows(IOException.class, () -> loser.close(false));
    assertTrue(refused.getMessage().contains(building.toString()), refused.getMessage());
    List<String> expected = List.of("k0=v0", "k1=v1", "k2=v2", "k3=v3", "k4=v4");
    assertEquals(expected, rows(ds, published.id()), "the published snapshot is what the winner wrote");
    assertEquals(5, ds.snapshot(published.id()).rowCount());

    // a task of a query that is building nothing (never begun, or published already) is refused, naming the query
    IOException none = assertThrows(IOException.class, () -> taskWriter(conf, ds));
    assertTrue(none.getMessage().contains("q-late-attempt"), none.getMessage());
  }
}
