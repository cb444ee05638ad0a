package io.snapds.yarn;

import com.google.inject.Guice;
import com.google.inject.Injector;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptReport;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.TxConstants;
import org.apache.tephra.distributed.TransactionService;
import org.apache.tephra.runtime.ConfigModule;
import org.apache.tephra.runtime.DiscoveryModules;
import org.apache.tephra.runtime.TransactionClientModule;
import org.apache.tephra.runtime.TransactionModules;
import org.apache.tephra.runtime.ZKModule;
import org.apache.tephra.shaded.org.apache.twill.zookeeper.ZKClientService;

/**
 * One YARN cluster for the whole test JVM (this module's run), beside the shared HBase mini
 * cluster and a Tephra transaction service (thrift, announced in the mini cluster's ZooKeeper),
 * started on first use and left to the JVM's exit.
 *
 * <p>What makes the task JVMs like a user's: they are separate processes launched by a
 * NodeManager, and their classpath is a Hadoop node's. {@code MiniMRYarnCluster} would hand every
 * container the test JVM's whole classpath ({@code yarn.is.minicluster}), so the job
 * configuration turns that off and names as the node's classpath the test classpath <em>minus</em>
 * what a Hadoop node does not have: snapds' own classes and jars, the tests' classes, HBase (and
 * its third-party shading, OpenTelemetry, Dropwizard metrics), Tephra and what only Tephra
 * brings (Thrift, Guice's assisted inject, fastutil), and Failsafe. Guice itself stays: Hadoop 3.4's
 * YARN has Guice 4.2 on every node (the tests' classpath has Tephra's 3.0 in its place). Those
 * reach the tasks only as a user's job ships them ({@code addDependencyJars}). Everything a task
 * knows about HBase, ZooKeeper and the transaction service is in the job configuration.
 *
 * <p>Sizes (so that it fits beside the rest of the suite): one NodeManager offering 3,072 MB;
 * containers of 512 MB (application master) and 384 MB (tasks), each JVM at {@code -Xmx200m};
 * the physical and virtual memory checks off (the JVMs' real use stays under their container but
 * JDK 17's reserved code and metaspace make the check noisy).
 */
public final class YarnTestBed {
  /** Class path entries a Hadoop node does not have (matched against the entry's path). */
  private static final List<String> NOT_ON_A_HADOOP_NODE = List.of("/io/snapds/", "/target/classes",
      "/target/test-classes", "/org/apache/hbase/", "/org/apache/tephra/", "/org/apache/thrift/",
      "/com/google/inject/extensions/guice-assistedinject/", "/it/unimi/dsi/", "/dev/failsafe/",
      "/io/opentelemetry/", "/io/dropwizard/metrics/", "/io/micrometer/", "/org/hdrhistogram/", "/org/junit/",
      "/org/opentest4j/", "/org/apiguardian/");

  private static YarnTestBed instance;

  private final MiniCluster hbase;
  private final MiniMRYarnCluster yarn;
  private final ZKClientService txZookeeper;
  private final TransactionService txService;
  private final TephraServiceClientFactory clientFactory;
  private final TransactionSystemClient txClient;
  private final String txQuorum;
  private final String nodeClasspath;
  private final String userJar;

  private YarnTestBed() throws Exception {
    hbase = MiniCluster.get();
    txQuorum = "localhost:" + hbase.configuration().get("hbase.zookeeper.property.clientPort");

    Configuration txConf = new Configuration(hbase.configuration());
    txConf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, txQuorum);
    txConf.set(TxConstants.Service.CFG_DATA_TX_BIND_ADDRESS, "127.0.0.1");
    try (ServerSocket free = new ServerSocket(0)) {
      txConf.setInt(TxConstants.Service.CFG_DATA_TX_BIND_PORT, free.getLocalPort());
    }
    txConf.setBoolean(TxConstants.Manager.CFG_DO_PERSIST, false);
    txConf.setInt(TxConstants.Manager.CFG_TX_CLEANUP_INTERVAL, 1);
    txConf.setInt(TxConstants.Manager.CFG_TX_MAX_TIMEOUT, MiniCluster.MAX_TX_TIMEOUT_SECONDS);
    Injector injector = Guice.createInjector(new ConfigModule(txConf), new ZKModule(),
        new DiscoveryModules().getDistributedModules(), new TransactionModules().getDistributedModules(),
        new TransactionClientModule());
    txZookeeper = injector.getInstance(ZKClientService.class);
    txZookeeper.startAndWait();
    txService = injector.getInstance(TransactionService.class);
    txService.startAndWait();
    clientFactory = new TephraServiceClientFactory();
    txClient = clientFactory.create(txConf);

    Configuration yarnConf = new Configuration(hbase.configuration()); // the mini DFS for staging
    yarnConf.setInt("yarn.nodemanager.resource.memory-mb", 3072);
    yarnConf.setInt("yarn.nodemanager.resource.cpu-vcores", 8);
    yarnConf.setInt("yarn.scheduler.minimum-allocation-mb", 128);
    yarnConf.setBoolean("yarn.nodemanager.pmem-check-enabled", false);
    yarnConf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    // a finished container's files and logs are kept a while for the report of a failed test
    yarnConf.setInt("yarn.nodemanager.delete.debug-delay-sec", 600);
    yarn = new MiniMRYarnCluster("snapds-yarn", 1);
    yarn.init(yarnConf);
    yarn.start();

    nodeClasspath = nodeClasspath();
    userJar = userJar().toString();
  }

  /** The shared instance, started on first call. */
  public static synchronized YarnTestBed get() {
    if (instance == null) {
      try {
        instance = new YarnTestBed();
      } catch (Exception e) {
        throw new IllegalStateException("starting the YARN test bed failed", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "yarn-test-bed-stop"));
    }
    return instance;
  }

  public MiniCluster hbase() {
    return hbase;
  }

  /** The datasets as the test (a user's driver) sees them: through the transaction service. */
  public SnapshotDatasets datasets() {
    return SnapshotDatasets.using(hbase.connection(), txClient);
  }

  /**
   * A job configured as a user's client would be: the cluster's site settings (HBase, ZooKeeper,
   * YARN, HDFS), {@code data.tx.zookeeper.quorum} for the transaction service, and the
   * node classpath described in the class comment. No transaction client factory is set: every
   * process of the job uses the default {@link TephraServiceClientFactory}.
   */
  public Job newJob(String name) throws IOException {
    Configuration conf = new Configuration(yarn.getConfig());
    conf.set("mapreduce.framework.name", "yarn");
    conf.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, txQuorum);
    conf.unset(JobDatasets.TX_CLIENT_FACTORY);
    conf.setBoolean("yarn.is.minicluster", false);
    conf.set("mapreduce.application.classpath", nodeClasspath);
    conf.set("yarn.application.classpath", "$HADOOP_CONF_DIR"); // not set here: nothing from YARN's defaults
    String opts = "-Xmx200m " + System.getProperty("snapds.test.jdk17.flags", "");
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    conf.set("yarn.app.mapreduce.am.command-opts", opts);
    conf.setInt("mapreduce.map.memory.mb", 384);
    conf.setInt("mapreduce.reduce.memory.mb", 384);
    conf.set("mapreduce.map.java.opts", opts);
    conf.set("mapreduce.reduce.java.opts", opts);
    conf.setInt("mapreduce.client.completion.pollinterval", 200);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", 200);
    // a failed attempt is retried once, not three times
    conf.setInt("mapreduce.map.maxattempts", 2);
    conf.setInt("mapreduce.reduce.maxattempts", 2);
    Job job = Job.getInstance(conf, name);
    job.setJar(userJar);
    return job;
  }

  /** The ResourceManager's attempts of {@code app}, oldest first. */
  public List<ApplicationAttemptReport> attempts(ApplicationId app) throws IOException {
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(yarn.getConfig());
      client.start();
      List<ApplicationAttemptReport> attempts = new ArrayList<>(client.getApplicationAttempts(app));
      attempts.sort(java.util.Comparator.comparing(ApplicationAttemptReport::getApplicationAttemptId));
      return attempts;
    } catch (YarnException e) {
      throw new IOException(e);
    }
  }

  /**
   * Ends the running application master of {@code app} as a crash does: its JVM (found among this
   * machine's processes by its main class and the application's log directory) is killed with
   * SIGKILL, so it neither unregisters nor runs a shutdown hook. Returns once the JVM is gone.
   */
  public void killApplicationMaster(ApplicationId app) throws Exception {
    List<ProcessHandle> masters = ProcessHandle.allProcesses()
        .filter(p -> p.info().command().filter(c -> c.endsWith("/java")).isPresent()
            && p.info().commandLine().filter(c -> c.contains("org.apache.hadoop.mapreduce.v2.app.MRAppMaster")
                && c.contains(app.toString())).isPresent())
        .toList();
    if (masters.size() != 1) {
      throw new IllegalStateException("expected one application master process of " + app + ", found " + masters.size());
    }
    ProcessHandle master = masters.get(0);
    master.destroyForcibly();
    master.onExit().get(1, java.util.concurrent.TimeUnit.MINUTES);
  }

  /** The cluster's file system (the HBase mini cluster's HDFS), for latches and text output. */
  public FileSystem fileSystem() throws IOException {
    return FileSystem.get(yarn.getConfig());
  }

  /** A fresh directory on the cluster's file system. */
  public Path newDirectory(String name) throws IOException {
    Path dir = new Path("/snapds-yarn-tests/" + name + "-" + System.nanoTime());
    fileSystem().mkdirs(dir);
    return dir;
  }

  /**
   * The user's job jar: this module's test classes (the mappers of {@link TaskSide}), packaged
   * as a user's build would package a job. {@code Job.setJarByClass} finds no jar for classes in a
   * directory, and HBase's {@code addDependencyJars} ships the job's formats and key and value
   * classes, not its mapper.
   */
  private static java.nio.file.Path userJar() throws IOException {
    java.nio.file.Path classes;
    try {
      classes = java.nio.file.Path.of(TaskSide.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    java.nio.file.Path jar = java.nio.file.Files.createTempFile("snapds-yarn-job", ".jar");
    jar.toFile().deleteOnExit();
    try (var out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar));
        var files = java.nio.file.Files.walk(classes)) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files.filter(java.nio.file.Files::isRegularFile)::iterator) {
        out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
        java.nio.file.Files.copy(f, out);
        out.closeEntry();
      }
    }
    return jar;
  }

  /** The test classpath minus what a Hadoop node does not have ({@link #NOT_ON_A_HADOOP_NODE}). */
  private static String nodeClasspath() {
    String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> kept = new ArrayList<>();
    for (String entry : full.split(File.pathSeparator)) {
      String path = entry.replace(File.separatorChar, '/');
      if (!entry.isEmpty() && NOT_ON_A_HADOOP_NODE.stream().noneMatch(path::contains)) {
        kept.add(entry);
      }
    }
    return String.join(",", kept);
  }

  private void stop() {
    try {
      yarn.stop();
    } catch (RuntimeException ignored) {
      // the JVM exits anyway
    }
    try {
      clientFactory.close();
      txService.stopAndWait();
      txZookeeper.stopAndWait();
    } catch (RuntimeException ignored) {
      // the JVM exits anyway
    }
  }
}
