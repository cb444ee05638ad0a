package io.snapds.dataset.testing;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.tx.LocalTransactionService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.TxConstants;

/**
 * One HBase mini cluster and one Tephra transaction manager for the whole test JVM (a module's
 * test run), started on first use and stopped when the JVM exits. Test classes get it through
 * {@link MiniClusterExtension}; each test uses its own dataset name ({@link #uniqueDataset}).
 */
public final class MiniCluster {
  private static final AtomicInteger NAMES = new AtomicInteger();
  /**
   * System property: how many region servers to start (default 1). The integration tests start
   * two, so that the fault-injection suite can abort one while the other serves.
   */
  public static final String REGION_SERVERS = "snapds.test.regionServers";
  /** The transaction manager's {@code data.tx.max.timeout}: one week. */
  public static final int MAX_TX_TIMEOUT_SECONDS = 7 * 86_400;
  private static MiniCluster instance;

  private final HBaseTestingUtility util;
  private final Connection connection;
  private final Path txStateDir;
  private LocalTransactionService tx;

  private MiniCluster() throws Exception {
    util = new HBaseTestingUtility();
    tuneForTests(util.getConfiguration());
    // compacted files archived within a second, not two minutes: a merged region can be merged
    // again once it holds no reference to its parents' files (RegionMergeIT runs a cycle in seconds)
    util.getConfiguration().setInt("hbase.hfile.compaction.discharger.interval", 1000);
    // a region server that a test aborts (FaultInjectionIT) must not take the test JVM with it:
    // HBase halts the whole process when an abort has not finished after this long (20 min by
    // default), which a JVM running every class on one cluster outlives
    util.getConfiguration().setLong("hbase.regionserver.abort.timeout", Duration.ofDays(7).toMillis());
    util.startMiniCluster(StartMiniClusterOption.builder()
        .numRegionServers(Integer.getInteger(REGION_SERVERS, 1)).build());
    connection = ConnectionFactory.createConnection(util.getConfiguration());
    txStateDir = Files.createTempDirectory("snapds-tx");
    tx = LocalTransactionService.persistent(txStateDir.toFile(), txConfiguration());
  }

  /**
   * Settings that only change how long the cluster makes a test wait, not what it does. An Admin
   * call that runs a master procedure (create a table, split, merge) polls for its end with the
   * client's retry backoff, {@code hbase.client.pause} times 1, 2, 3, 5, 10, 20, 40, 100, ... :
   * at HBase's 100 ms a split that ends after 1.0 s is seen at 2.1 s and a table create that ends
   * after 0.7 s at 1.1 s. At a 2 ms pause the polls come every 200 ms past the first 0.2 s. The
   * retries grow from 5 to 14 so that a failing data call still gives up after the same 2.1 s of
   * backoff as before (2 + 4 + 6 + 10 + 20 + 40 + 80 + 200 * 6 + 400 * 2 ms). A region move waits in
   * the master, which checks for its end every {@code hbase.master.event.waiting.time} (1 s by
   * default, 50 ms here); the master batches region opens and closes it sends to a region server
   * for {@code hbase.procedure.remote.dispatcher.delay.msec} (150 ms by default, 10 ms here); and a
   * region server retries reporting for duty at start every {@code hbase.regionserver.msginterval}
   * (3 s by default, 1 s here).
   */
  static void tuneForTests(Configuration conf) {
    conf.setInt("hbase.client.pause", 2);
    conf.setInt("hbase.client.retries.number", 14);
    conf.setInt("hbase.master.event.waiting.time", 50);
    conf.setInt("hbase.procedure.remote.dispatcher.delay.msec", 10);
    conf.setInt("hbase.regionserver.msginterval", 1000);
  }

  /** The shared instance, started on first call. */
  public static synchronized MiniCluster get() {
    if (instance == null) {
      try {
        instance = new MiniCluster();
      } catch (Exception e) {
        throw new IllegalStateException("starting the HBase mini cluster failed", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stopWithin, "mini-cluster-stop"));
    }
    return instance;
  }

  private Configuration txConfiguration() {
    Configuration conf = new Configuration(util.getConfiguration());
    // time out dead writers' transactions quickly, and check often
    conf.setInt(TxConstants.Manager.CFG_TX_CLEANUP_INTERVAL, 1);
    // a limit on transaction timeouts as a service would set one (Tephra's default is none)
    conf.setInt(TxConstants.Manager.CFG_TX_MAX_TIMEOUT, MAX_TX_TIMEOUT_SECONDS);
    return conf;
  }

  public HBaseTestingUtility util() {
    return util;
  }

  public Configuration configuration() {
    return util.getConfiguration();
  }

  public Connection connection() {
    return connection;
  }

  public synchronized TransactionSystemClient txClient() {
    return tx.client();
  }

  public synchronized LocalTransactionService txService() {
    return tx;
  }

  /**
   * Stops the transaction manager and starts a new one over the same persisted state: what a
   * restart of the transaction service looks like to clients.
   */
  public synchronized LocalTransactionService restartTransactionManager() {
    tx.close();
    tx = LocalTransactionService.persistent(txStateDir.toFile(), txConfiguration());
    return tx;
  }

  /**
   * Invalidates every transaction still in progress. A test class that leaves one behind (a
   * writer it never closed after a failed assertion, readers stranded on a manager it restarted)
   * would otherwise hold back cleanup and metadata pruning of every later class until that
   * transaction timed out; {@link MiniClusterExtension} calls this before each class.
   */
  public synchronized void endLeftoverTransactions() {
    for (long leftover : List.copyOf(txService().manager().getCurrentState().getInProgress().keySet())) {
      txClient().invalidate(leftover);
    }
  }

  public SnapshotDatasets datasets() {
    return SnapshotDatasets.using(connection, txClient());
  }

  /**
   * Rows physically in {@code dataset}'s data table under {@code snapshot}'s prefix, whatever the
   * snapshot's state: what cleanup left behind, or what a build wrote before it published.
   */
  public long rawRows(DatasetId dataset, SnapshotId snapshot) {
    SnapshotKeys keys;
    try (SnapshotDataset ds = datasets().open(dataset)) {
      keys = ds.keys(snapshot);
    }
    return rawRows(dataset, keys);
  }

  /**
   * Splits the region of {@code table} that holds {@code point} at it and waits for the split (at
   * most two minutes).
   *
   * @throws IllegalStateException if the table does not have one region more after it
   */
  public void splitAt(org.apache.hadoop.hbase.TableName table, byte[] point) throws Exception {
    try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin();
        org.apache.hadoop.hbase.client.RegionLocator locator = connection.getRegionLocator(table)) {
      int before = locator.getAllRegionLocations().size();
      byte[] region = locator.getRegionLocation(point, true).getRegion().getRegionName();
      admin.splitRegionAsync(region, point).get(2, java.util.concurrent.TimeUnit.MINUTES);
      int after = locator.getAllRegionLocations().size();
      if (after != before + 1) {
        throw new IllegalStateException("splitting " + table + " at " + org.apache.hadoop.hbase.util.Bytes
            .toStringBinary(point) + " left " + after + " regions, expected " + (before + 1));
      }
    }
  }

  /** Rows physically in {@code dataset}'s data table in {@code snapshot}'s key range. */
  public long rawRows(DatasetId dataset, SnapshotKeys snapshot) {
    try (Table table = connection.getTable(dataset.dataTable());
        ResultScanner rows = table.getScanner(new Scan().withStartRow(snapshot.start())
            .withStopRow(snapshot.stop()).setFilter(new FirstKeyOnlyFilter()))) {
      long n = 0;
      for (Result ignored : rows) {
        n++;
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A dataset name no other test in this JVM uses. */
  public static DatasetId uniqueDataset(String prefix) {
    return DatasetId.of("t", prefix + "_" + NAMES.incrementAndGet());
  }

  /** How long the JVM's exit waits for the cluster to stop. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(30);

  /**
   * Stops the cluster at JVM exit, waiting at most {@link #STOP_WAIT}. Nothing needs the stop to
   * finish (the process ends, its ports and threads with it), but an unbounded one held the exit:
   * after a class that aborts region servers the master's close could block on a WAL sync for
   * good, and surefire killed the JVM only after its 180 s exit timeout (the integration tests' run
   * of 2026-12-06 00:17 spent those three minutes). A stop that does not end in time leaves its files under
   * {@code target/test-data}.
   */
  private void stopWithin() {
    Thread stopping = new Thread(this::stop, "mini-cluster-stopping");
    stopping.setDaemon(true);
    stopping.start();
    try {
      stopping.join(STOP_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (stopping.isAlive()) {
      System.err.println("MiniCluster: the cluster had not stopped after " + STOP_WAIT + "; the JVM exits anyway");
    }
  }

  private void stop() {
    try {
      tx.close();
    } catch (RuntimeException ignored) {
      // stopping anyway
    }
    deleteQuietly(txStateDir); // one per test JVM; they piled up in /tmp
    try {
      connection.close();
      util.shutdownMiniCluster();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // a temporary directory: the next boot's cleaner, if any, takes it
    }
  }
}
