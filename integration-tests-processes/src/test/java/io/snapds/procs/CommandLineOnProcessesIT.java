package io.snapds.procs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.snapds.cli.SnapdsCommand;
import io.snapds.cli.env.Environment;
import io.snapds.cli.env.EnvironmentFactory;
import io.snapds.cli.server.Environments;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotKeys;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionFailureException;
import org.apache.tephra.TransactionSystemClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import picocli.CommandLine;

/**
 * The command line as a user runs it ({@code snapds --zookeeper Q --tx-service Q ...}, here
 * {@code io.snapds.cli}'s command line called in this JVM) against a cluster whose every server
 * is a process of its own ({@link ProcessCluster}): ZooKeeper, HDFS, an HMaster, two
 * HRegionServers and Tephra's transaction service. Each test asserts the rows a reader got, the
 * snapshot ids, and the stored state through the Java API on the same cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CommandLineOnProcessesIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Rows of the loads a fault interrupts: a few hundred thousand, as the issue asks. */
  private static final int BIG_LOAD_ROWS = 300_000;

  private static ProcessCluster cluster;
  private static Connection connection;
  private static TephraServiceClientFactory txFactory;
  private static TransactionSystemClient txClient;
  private static Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    Path dir = Path.of(System.getProperty("snapds.test.clusterDir", "target/cluster"));
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String flags = System.getProperty("snapds.test.jdk17.flags", "").trim();
    long t0 = System.nanoTime();
    cluster = ProcessCluster.start(dir, classpath, flags.isEmpty() ? List.of() : List.of(flags.split("\\s+")));
    // whatever ends this JVM, the cluster's processes end with it
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "process-cluster-stop"));
    System.out.printf("process cluster started in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    connection = ConnectionFactory.createConnection(cluster.clientConfiguration());
    txFactory = new TephraServiceClientFactory();
    txClient = txFactory.create(cluster.clientConfiguration());
    work = Files.createDirectories(dir.resolveSibling("cluster-work"));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (txFactory != null) {
      txFactory.close();
    }
    if (connection != null) {
      connection.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void createLoadScanHistoryRollbackGcStatusReconcile() throws Exception {
    DatasetId id = DatasetId.of("procs", "users");
    Path first = Files.writeString(work.resolve("users-1.csv"), "id,name\n1,ann\n2,bob\n3,cyd\n");
    Path second = Files.writeString(work.resolve("users-2.csv"), "id,name\n1,ann\n2,bea\n4,dan\n");

    ok(cli("create", id.toString()));
    ok(cli("load", id.toString(), first.toString(), "-k", "id"));
    SnapshotId s1 = currentId(id);
    ok(cli("load", id.toString(), second.toString(), "-k", "id"));
    SnapshotId s2 = currentId(id);
    assertNotEquals(s1, s2);

    assertEquals("KEY  d:name\n1    ann\n2    bea\n4    dan\n", ok(cli("scan", id.toString())).out());
    JsonNode history = JSON.readTree(ok(cli("history", id.toString(), "--json")).out());
    Map<Long, Long> rowsById = new LinkedHashMap<>();
    history.forEach(s -> rowsById.put(s.get("id").asLong(), s.get("rows").asLong()));
    assertEquals(Map.of(s1.value(), 3L, s2.value(), 3L), rowsById, history.toString());

    Result rollback = ok(cli("rollback", id.toString(), s1.toString()));
    assertTrue(rollback.out().contains("current snapshot is now " + s1 + " (was " + s2 + ")"), rollback.toString());
    assertEquals("KEY  d:name\n1    ann\n2    bob\n3    cyd\n", ok(cli("scan", id.toString())).out());
    assertEquals(Map.of("1", "ann", "2", "bob", "3", "cyd"), readCurrent(id));

    ok(cli("gc", id.toString()));
    Result status = cli("status", id.toString());
    assertEquals(0, status.code(), status.toString());
    assertTrue(status.out().contains(id.toString()), status.toString());
    ok(cli("reconcile", id.toString()));
    // both snapshots stay retained (rollback keeps the newer one), their rows stored
    try (SnapshotDataset ds = datasets().open(id)) {
      assertEquals(s1, ds.currentSnapshot().orElseThrow().id());
      assertEquals(3, rawRows(id, ds.keys(s1)));
      assertEquals(3, rawRows(id, ds.keys(s2)));
    }
  }

  /**
   * A region server process killed with SIGKILL while a load of 300,000 rows streams into the
   * region it serves. The load reads a named pipe the test writes: half the rows, then (once
   * rows of the new snapshot are stored) the kill, then the rest. The load publishes every row
   * or fails with a typed error and its snapshot ends ABORTED, its rows removed by gc.
   */
  @Test
  @Order(2)
  void aRegionServerKilledMidLoadLeavesTheLoadWholeOrAborted() throws Exception {
    DatasetId id = DatasetId.of("procs", "killed_rs");
    ok(cli("create", id.toString()));
    Path small = Files.writeString(work.resolve("before-kill.csv"), "k,v\nbefore,1\n");
    ok(cli("load", id.toString(), small.toString(), "-k", "k"));
    SnapshotId before = currentId(id);

    Path pipe = fifo("rs-kill.csv");
    CompletableFuture<Result> load = CompletableFuture.supplyAsync(
        () -> cli("load", id.toString(), pipe.toString(), "-k", "k"));
    String victim = null;
    AtomicBoolean readerGone = new AtomicBoolean();
    try (BufferedWriter rows = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(pipe),
        StandardCharsets.UTF_8))) {
      rows.write("k,v\n");
      writeRows(rows, 0, BIG_LOAD_ROWS / 2);
      rows.flush();
      // the loader has read the first half; wait until the writer's buffer reached the region
      // server (rows beyond the one of the snapshot before, whose one row is stored)
      awaitCondition(() -> rawRowsOfTable(id) > 1);
      victim = regionServerOf(id);
      cluster.kill(victim);
      System.out.printf("killed %s (SIGKILL) with %d rows of the table stored%n", victim, rawRowsOfTable(id));
      try {
        writeRows(rows, BIG_LOAD_ROWS / 2, BIG_LOAD_ROWS);
      } catch (IOException brokenPipe) {
        readerGone.set(true); // the load failed and closed its input: allowed, checked below
      }
    } catch (IOException closing) {
      readerGone.set(true);
    }
    Result result = load.get(10, TimeUnit.MINUTES);
    System.out.println("load after the kill: " + result);
    assertTrue(victim != null, "the load ended before half its rows were stored: " + result);
    cluster.startRegionServer(Integer.parseInt(victim.substring(2)));
    cluster.awaitHBase(2);

    reconcileUntilNothingBuilding(id);
    ok(cli("gc", id.toString()));
    try (SnapshotDataset ds = datasets().open(id)) {
      SnapshotInfo current = ds.currentSnapshot().orElseThrow();
      if (result.code() == 0) {
        assertTrue(!readerGone.get(), "a load that published had read its whole input");
        assertNotEquals(before, current.id());
        assertEquals(BIG_LOAD_ROWS, current.rowCount());
        assertEquals(BIG_LOAD_ROWS, countCurrent(ds));
        assertEquals(BIG_LOAD_ROWS, JSON.readTree(ok(cli("history", id.toString(), "--json")).out()).get(0)
            .get("rows").asLong());
      } else {
        assertTypedFailure(result);
        assertEquals(before, current.id(), "a failed load published nothing");
        assertEquals(Map.of("before", "1"), readCurrent(id));
        List<SnapshotInfo> others = ds.snapshots().stream().filter(s -> !s.id().equals(before)).toList();
        assertEquals(1, others.size(), others.toString());
        assertEquals(SnapshotState.ABORTED, others.get(0).state(), others.toString());
        assertEquals(0, rawRows(id, others.get(0).keys()), "gc removed the aborted load's rows");
      }
    }
  }

  /**
   * The transaction service process stopped (SIGTERM) in the middle of a publish: after the
   * publish's conflict check, before its commit. The service is started again over its state
   * directory while the client retries. The publish lands or fails typed; after reconcile the
   * current snapshot is one whole snapshot.
   */
  @Test
  @Order(3)
  void theTransactionServiceRestartedMidPublishLeavesOneWholeSnapshot() throws Exception {
    DatasetId id = DatasetId.of("procs", "tx_restart");
    ok(cli("create", id.toString()));
    Path small = Files.writeString(work.resolve("before-restart.csv"), "k,v\nbefore,1\n");
    ok(cli("load", id.toString(), small.toString(), "-k", "k"));
    SnapshotId before = currentId(id);
    int rows = 20_000;
    Path csv = work.resolve("tx-restart.csv");
    try (BufferedWriter out = Files.newBufferedWriter(csv)) {
      out.write("k,v\n");
      writeRows(out, 0, rows);
    }

    AtomicReference<CompletableFuture<Void>> restart = new AtomicReference<>();
    EnvironmentFactory stopsTxMidPublish = publishHooked(() -> {
      stopTxService();
      restart.set(CompletableFuture.runAsync(CommandLineOnProcessesIT::startTxService));
    });
    Result load = run(stopsTxMidPublish, "load", id.toString(), csv.toString(), "-k", "k");
    System.out.println("load across the restart: " + load);
    assertTrue(restart.get() != null, "the hook stopped the service during the publish");
    restart.get().get(5, TimeUnit.MINUTES);

    Result status = cli("status", id.toString());
    System.out.println("status after the restart: " + status);
    reconcileUntilNothingBuilding(id);
    ok(cli("gc", id.toString()));
    try (SnapshotDataset ds = datasets().open(id)) {
      SnapshotInfo current = ds.currentSnapshot().orElseThrow();
      long read = countCurrent(ds);
      assertEquals(current.rowCount(), read, "the current snapshot's recorded rows are the rows a reader gets");
      if (load.code() == 0) {
        assertNotEquals(before, current.id());
        assertEquals(rows, read);
      } else {
        assertTypedFailure(load);
        assertEquals(before, current.id());
        assertEquals(Map.of("before", "1"), readCurrent(id));
        for (SnapshotInfo s : ds.snapshots()) {
          if (!s.id().equals(before)) {
            assertEquals(SnapshotState.ABORTED, s.state(), s.toString());
          }
        }
      }
      assertTrue(ds.snapshots().stream().noneMatch(s -> s.state() == SnapshotState.BUILDING),
          "nothing left BUILDING after reconcile: " + ds.snapshots());
    }
    Result statusAfter = cli("status", id.toString());
    assertEquals(0, statusAfter.code(), "nothing needs attention after reconcile: " + statusAfter);
  }

  /**
   * The transaction service stopped in the same place, and started again only after the load
   * gave up (its client retries the commit about 34 s, then the load reports the failure): the
   * load fails typed, nothing of it is current, {@code status} shows the stuck build, and
   * {@code reconcile} aborts it once its writer's lease has expired (15 s here); gc then removes
   * its rows (reconcile's own cleanup already did).
   */
  @Test
  @Order(4)
  void theTransactionServiceDownThroughThePublishFailsItTypedAndReconcileRepairs() throws Exception {
    DatasetId id = DatasetId.of("procs", "tx_down");
    // created through the Java API for a 15 s lease: the test then waits 15 s for the dead
    // writer's lease to expire, not the default 60 s (the command line's create has no option for it)
    datasets().create(id, DatasetProperties.builder()
        .lockSettings(LockSettings.builder().leaseDuration(Duration.ofSeconds(15)).build()).build()).close();
    Path small = Files.writeString(work.resolve("before-down.csv"), "k,v\nbefore,1\n");
    ok(cli("load", id.toString(), small.toString(), "-k", "k"));
    SnapshotId before = currentId(id);
    Path csv = work.resolve("tx-down.csv");
    try (BufferedWriter out = Files.newBufferedWriter(csv)) {
      out.write("k,v\n");
      writeRows(out, 0, 20_000);
    }
    AtomicBoolean stopped = new AtomicBoolean();
    Result load = run(publishHooked(() -> {
      stopTxService();
      stopped.set(true);
    }), "load", id.toString(), csv.toString(), "-k", "k");
    System.out.println("load with the service down: " + load);
    assertTrue(stopped.get(), "the hook stopped the service during the publish");
    assertTypedFailure(load);
    startTxService();

    Result status = cli("status", id.toString());
    System.out.println("status after the restart: " + status);
    reconcileUntilNothingBuilding(id);
    Result gc = ok(cli("gc", id.toString()));
    System.out.println("gc: " + gc);
    try (SnapshotDataset ds = datasets().open(id)) {
      assertEquals(before, ds.currentSnapshot().orElseThrow().id(), "a failed publish made nothing current");
      assertEquals(Map.of("before", "1"), readCurrent(id));
      List<SnapshotInfo> others = ds.snapshots().stream().filter(s -> !s.id().equals(before)).toList();
      assertEquals(1, others.size(), others.toString());
      assertEquals(SnapshotState.ABORTED, others.get(0).state(), others.toString());
      assertEquals(0, rawRows(id, others.get(0).keys()), "gc removed the failed load's rows");
    }
    Result statusAfter = cli("status", id.toString());
    assertEquals(0, statusAfter.code(), "nothing needs attention after reconcile: " + statusAfter);
  }

  // ---- helpers

  /** The standard environment, its transaction client running {@code hook} once in a publish ({@link PublishHook}). */
  private static EnvironmentFactory publishHooked(Runnable hook) {
    return options -> {
      Environment real = Environments.standard().open(options);
      TransactionSystemClient hooked = new PublishHook(real.txClient(), hook);
      return new Environment() {
        @Override public Connection connection() { return real.connection(); }
        @Override public TransactionSystemClient txClient() { return hooked; }
        @Override public String description() { return real.description(); }
        @Override public void close() { real.close(); }
      };
    };
  }

  /**
   * Runs {@code reconcile} every 5 s until the dataset has no BUILDING snapshot (at most 3 min):
   * a dead writer's snapshot is aborted once its lock lease has expired, a wall-clock time in the
   * cluster that no hook in this process can signal.
   */
  private static void reconcileUntilNothingBuilding(DatasetId id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (true) {
      Result reconcile = cli("reconcile", id.toString());
      System.out.println("reconcile: " + reconcile);
      try (SnapshotDataset ds = datasets().open(id)) {
        if (ds.snapshots().stream().noneMatch(s -> s.state() == SnapshotState.BUILDING)) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError("still BUILDING after 3 min of reconcile: " + ds.snapshots() + "\n" + reconcile);
        }
      }
      Thread.sleep(5_000);
    }
  }

  private static void stopTxService() {
    try {
      cluster.stop("tx");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void startTxService() {
    try {
      cluster.startTxService();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  record Result(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
  }

  private static Result cli(String... args) {
    return run(Environments.standard(), args);
  }

  private static Result run(EnvironmentFactory environments, String... args) {
    List<String> all = new ArrayList<>(List.of("--home", work.resolve("home").toString(),
        "--zookeeper", cluster.zookeeper(), "--tx-service", cluster.zookeeper()));
    all.addAll(List.of(args));
    CommandLine cmd = SnapdsCommand.commandLine(environments);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(all.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  private static Result ok(Result r) {
    assertEquals(0, r.code(), r.toString());
    return r;
  }

  /** A failed command says what failed in one line on stderr, with a non-zero exit code, no stack trace. */
  private static void assertTypedFailure(Result r) {
    assertNotEquals(0, r.code(), r.toString());
    assertTrue(r.err().startsWith("snapds: "), r.toString());
    assertTrue(!r.err().contains("\tat "), "no stack trace: " + r);
  }

  private static SnapshotDatasets datasets() {
    return SnapshotDatasets.using(connection, txClient);
  }

  private static SnapshotId currentId(DatasetId id) {
    try (SnapshotDataset ds = datasets().open(id)) {
      return ds.currentSnapshot().orElseThrow().id();
    }
  }

  private static Map<String, String> readCurrent(DatasetId id) {
    Map<String, String> rows = new LinkedHashMap<>();
    try (SnapshotDataset ds = datasets().open(id);
        RowScanner scanner = ds.readCurrent().scan(RowScan.all())) {
      for (SnapshotRow row : scanner) {
        String value = row.families().firstEntry().getValue().firstEntry().getValue() == null ? null
            : new String(row.families().firstEntry().getValue().firstEntry().getValue(), StandardCharsets.UTF_8);
        rows.put(row.keyAsString(), value);
      }
    }
    return rows;
  }

  private static long countCurrent(SnapshotDataset ds) {
    long n = 0;
    try (RowScanner scanner = ds.readCurrent().scan(RowScan.all())) {
      for (SnapshotRow ignored : scanner) {
        n++;
      }
    }
    return n;
  }

  private static long rawRows(DatasetId id, SnapshotKeys keys) throws IOException {
    try (Table table = connection.getTable(id.dataTable());
        ResultScanner rows = table.getScanner(new Scan().withStartRow(keys.start()).withStopRow(keys.stop())
            .setFilter(new FirstKeyOnlyFilter()))) {
      long n = 0;
      for (org.apache.hadoop.hbase.client.Result ignored : rows) {
        n++;
      }
      return n;
    }
  }

  private static long rawRowsOfTable(DatasetId id) {
    try (Table table = connection.getTable(id.dataTable());
        ResultScanner rows = table.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()))) {
      long n = 0;
      for (org.apache.hadoop.hbase.client.Result ignored : rows) {
        n++;
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The process name ({@code rs1} or {@code rs2}) of the region server holding the dataset's data. */
  private static String regionServerOf(DatasetId id) throws Exception {
    try (RegionLocator locator = connection.getRegionLocator(id.dataTable())) {
      List<HRegionLocation> all = locator.getAllRegionLocations();
      assertEquals(1, all.size(), all.toString());
      return cluster.regionServerName(all.get(0).getServerName().getPort());
    }
  }

  private static void writeRows(java.io.Writer out, int from, int to) throws IOException {
    for (int i = from; i < to; i++) {
      out.write(String.format("k%08d,v%d%n", i, i));
    }
    out.flush();
  }

  private static Path fifo(String name) throws Exception {
    Path p = work.resolve(name);
    Files.deleteIfExists(p);
    Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
    assertEquals(0, mk.waitFor(), "mkfifo " + p);
    return p;
  }

  /** Polls a condition the cluster reaches on its own (no hook reaches into another process). */
  private static void awaitCondition(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached in 2 minutes");
      }
      Thread.sleep(100);
    }
  }

  /**
   * A transaction client that runs a hook once, in the publish of a snapshot: after the publish's
   * conflict check ({@code canCommitOrThrow} called from {@code SnapshotWriterImpl.commit}), before
   * its commit. The call stack is how it knows the publish from the other metadata transactions.
   */
  static final class PublishHook implements TransactionSystemClient {
    private final TransactionSystemClient delegate;
    private final Runnable hook;
    private final AtomicBoolean fired = new AtomicBoolean();

    PublishHook(TransactionSystemClient delegate, Runnable hook) {
      this.delegate = delegate;
      this.hook = hook;
    }

    private static boolean inPublish() {
      return StackWalker.getInstance().walk(frames -> frames.anyMatch(f ->
          f.getClassName().equals("io.snapds.dataset.SnapshotWriterImpl") && f.getMethodName().equals("commit")));
    }

    @Override
    public void canCommitOrThrow(Transaction tx, Collection<byte[]> changes) throws TransactionFailureException {
      delegate.canCommitOrThrow(tx, changes);
      if (inPublish() && fired.compareAndSet(false, true)) {
        hook.run();
      }
    }

    @Override public Transaction startShort() { return delegate.startShort(); }
    @Override public Transaction startShort(int timeout) { return delegate.startShort(timeout); }
    @Override public Transaction startLong() { return delegate.startLong(); }
    @SuppressWarnings("deprecation")
    @Override public boolean canCommit(Transaction tx, Collection<byte[]> changes)
        throws org.apache.tephra.TransactionNotInProgressException {
      return delegate.canCommit(tx, changes);
    }
    @SuppressWarnings("deprecation")
    @Override public boolean commit(Transaction tx) throws org.apache.tephra.TransactionNotInProgressException {
      return delegate.commit(tx);
    }
    @Override public void commitOrThrow(Transaction tx) throws TransactionFailureException { delegate.commitOrThrow(tx); }
    @Override public void abort(Transaction tx) { delegate.abort(tx); }
    @Override public boolean invalidate(long tx) { return delegate.invalidate(tx); }
    @Override public Transaction checkpoint(Transaction tx) throws org.apache.tephra.TransactionNotInProgressException {
      return delegate.checkpoint(tx);
    }
    @Override public java.io.InputStream getSnapshotInputStream()
        throws org.apache.tephra.TransactionCouldNotTakeSnapshotException {
      return delegate.getSnapshotInputStream();
    }
    @Override public String status() { return delegate.status(); }
    @Override public void resetState() { delegate.resetState(); }
    @Override public boolean truncateInvalidTx(java.util.Set<Long> invalidTxIds) { return delegate.truncateInvalidTx(invalidTxIds); }
    @Override public boolean truncateInvalidTxBefore(long time) throws org.apache.tephra.InvalidTruncateTimeException {
      return delegate.truncateInvalidTxBefore(time);
    }
    @Override public int getInvalidSize() { return delegate.getInvalidSize(); }
    @Override public void pruneNow() { delegate.pruneNow(); }
  }
}
