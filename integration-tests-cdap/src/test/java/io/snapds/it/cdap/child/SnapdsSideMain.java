package io.snapds.it.cdap.child;

import com.google.gson.Gson;
import com.google.inject.Guice;
import com.google.inject.Injector;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.tx.JobDatasets;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.runtime.ConfigModule;
import org.apache.tephra.runtime.DiscoveryModules;
import org.apache.tephra.runtime.TransactionClientModule;
import org.apache.tephra.runtime.TransactionModules;
import org.apache.tephra.runtime.ZKModule;
import org.apache.tephra.shaded.com.google.common.util.concurrent.Service;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;

/**
 * The snapds side of the CDAP tests, in a JVM of its own: Tephra 0.16.1's classes share their
 * names with CDAP's Tephra 0.15, so they cannot live in the CDAP test JVM. It runs a Tephra
 * transaction service (thrift, announced in the HBase mini cluster's ZooKeeper, as
 * {@code TransactionServiceMain} does in production), and answers the test's questions about
 * datasets through the snapds public API, one command per line on stdin, one JSON answer per line
 * on stdout:
 * <ul>
 *   <li>{@code dump <namespace> <name>}: the current snapshot, every snapshot's state, run id and
 *       source key, and the rows of every committed or staged snapshot still readable;</li>
 *   <li>{@code cleanup <namespace> <name>}: runs the dataset's cleanup;</li>
 *   <li>{@code typed <namespace> <name>}: every committed snapshot's schema and rows, each row
 *       decoded with the schema that snapshot was written with, its values as text.</li>
 * </ul>
 * Started by {@code SnapdsSide} with the plugin jar's {@code lib/} first on its classpath, so it
 * runs the very libraries the plugin ships. Argument: the ZooKeeper quorum ({@code host:port}).
 */
public final class SnapdsSideMain {
  private SnapdsSideMain() {
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
    System.setOut(System.err); // logs must not mix with the answers
    String quorum = args[0];
    Configuration conf = new Configuration();
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    conf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "127.0.0.1");
    try (ServerSocket free = new ServerSocket(0)) {
      conf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    conf.setBoolean(TxConstants.Manager.CFG_DO_PERSIST, false);
    conf.set("hbase.zookeeper.quorum", quorum.substring(0, quorum.lastIndexOf(':')));
    conf.set("hbase.zookeeper.property.clientPort", quorum.substring(quorum.lastIndexOf(':') + 1));

    Injector injector = Guice.createInjector(new ConfigModule(conf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(), new TransactionModules().getDistributedModules(),
        new TransactionClientModule());
    ZKClientService zookeeper = injector.getInstance(ZKClientService.class);
    zookeeper.startAndWait();
    // typed as the shaded Guava Service of tephra-core-shaded 0.16.1: this class compiles next to
    // CDAP's unshaded Tephra 0.15, whose TransactionService would bind another startAndWait
    Service service = (Service) injector.getInstance(TransactionService.class);
    service.startAndWait();
    Gson gson = new Gson();
    try (JobDatasets datasets = JobDatasets.open(conf)) {
      out.println("READY " + conf.get(TxConstants.Service.CFG_DATA_TX_BIND_PORT));
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
        String[] words = line.trim().split(" ");
        Map<String, Object> answer = new LinkedHashMap<>();
        try {
          SnapshotDataset dataset = datasets.open(DatasetId.of(words[1], words[2]));
          switch (words[0]) {
            case "dump" -> dump(dataset, answer);
            case "cleanup" -> answer.put("cleanup", dataset.cleanup().toString());
            case "typed" -> typed(dataset, answer);
            default -> throw new IllegalArgumentException("unknown command '" + words[0] + "'");
          }
        } catch (RuntimeException e) {
          answer.put("error", e.toString());
        }
        out.println(gson.toJson(answer));
      }
    } finally {
      service.stopAndWait();
      zookeeper.stopAndWait();
    }
  }

  private static void dump(SnapshotDataset dataset, Map<String, Object> answer) {
    answer.put("current", dataset.currentSnapshot().map(s -> s.id().toString()).orElse(null));
    List<Map<String, Object>> snapshots = new ArrayList<>();
    Map<String, List<Map<String, String>>> rows = new LinkedHashMap<>();
    for (SnapshotInfo s : dataset.snapshots()) {
      Map<String, Object> info = new LinkedHashMap<>();
      info.put("id", s.id().toString());
      info.put("state", s.state().name());
      info.put("runId", s.runId().orElse(null));
      info.put("sourceKey", s.sourceKey().orElse(null));
      info.put("rowCount", s.rowCount());
      snapshots.add(info);
      if (s.state() == SnapshotState.COMMITTED || s.state() == SnapshotState.STAGED) {
        rows.put(s.id().toString(), rows(dataset, s));
      }
    }
    answer.put("snapshots", snapshots);
    answer.put("rows", rows);
  }

  /** Per committed snapshot with a schema: the schema (with ids) and the rows it decodes, values as text. */
  private static void typed(SnapshotDataset dataset, Map<String, Object> answer) {
    Map<String, String> schemas = new LinkedHashMap<>();
    Map<String, List<Map<String, String>>> rows = new LinkedHashMap<>();
    String family = dataset.properties().families().get(0);
    for (SnapshotInfo s : dataset.retainedSnapshots()) {
      Optional<io.snapds.dataset.schema.Schema> schema = dataset.schema(s.id());
      if (schema.isEmpty()) {
        continue;
      }
      schemas.put(s.id().toString(), schema.get().toStringWithIds());
      io.snapds.dataset.schema.RowCodec codec = new io.snapds.dataset.schema.RowCodec(schema.get(), family);
      List<Map<String, String>> out = new ArrayList<>();
      try (RowScanner scanner = dataset.readSnapshot(s.id()).scan(RowScan.all())) {
        for (SnapshotRow row : scanner) {
          Map<String, String> values = new LinkedHashMap<>();
          codec.decode(row).toMap().forEach((k, v) -> values.put(k, io.snapds.it.cdap.ValueText.of(v)));
          out.add(values);
        }
      }
      rows.put(s.id().toString(), out);
    }
    answer.put("schemas", schemas);
    answer.put("rows", rows);
  }

  /** Every row of a snapshot as {column: UTF-8 text of its cell}. */
  private static List<Map<String, String>> rows(SnapshotDataset dataset, SnapshotInfo snapshot) {
    List<Map<String, String>> out = new ArrayList<>();
    try (RowScanner scanner = dataset.readSnapshot(snapshot.id()).scan(RowScan.all())) {
      for (SnapshotRow row : scanner) {
        Map<String, String> cells = new TreeMap<>();
        row.families().forEach((family, columns) -> columns.forEach((q, v) ->
            cells.put(new String(q, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8))));
        out.add(cells);
      }
    }
    return out;
  }
}
