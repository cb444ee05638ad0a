package io.snapds.dataset.tx;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionManager;
import org.apache.tephra.TransactionSystemClient;
import org.apache.tephra.TxConstants;
import org.apache.tephra.inmemory.InMemoryTxSystemClient;
import org.apache.tephra.metrics.TxMetricsCollector;
import org.apache.tephra.persist.LocalFileTransactionStateStorage;
import org.apache.tephra.persist.NoOpTransactionStateStorage;
import org.apache.tephra.snapshot.SnapshotCodecProvider;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A Tephra {@link TransactionManager} in this process, for the embedded command line and tests.
 * With a state directory, the manager's snapshots and edit log persist there, so a new instance
 * over the same directory resumes where the last one stopped (same write pointers, same invalid
 * list). A production deployment uses Tephra's transaction service instead, through its
 * distributed client.
 */
@InterfaceAudience.Private
public final class LocalTransactionService implements AutoCloseable {
  private final TransactionManager manager;
  private final TransactionSystemClient client;

  private LocalTransactionService(TransactionManager manager) {
    this.manager = manager;
    this.client = new InMemoryTxSystemClient(manager);
  }

  /** A manager whose state lives in {@code stateDir} (created if missing). */
  public static LocalTransactionService persistent(File stateDir, Configuration base) {
    TransactionManager manager = persistentManager(stateDir, base);
    manager.startAndWait();
    return new LocalTransactionService(manager);
  }

  /**
   * A manager, not yet started, whose state lives in {@code stateDir} (created if missing): for a
   * Tephra {@code TransactionService} that starts it when it becomes the leader.
   */
  public static TransactionManager persistentManager(File stateDir, Configuration base) {
    if (!stateDir.isDirectory() && !stateDir.mkdirs()) {
      throw new IllegalArgumentException("cannot create transaction state directory " + stateDir);
    }
    Configuration conf = new Configuration(base);
    conf.set(TxConstants.Manager.CFG_TX_SNAPSHOT_LOCAL_DIR, stateDir.getAbsolutePath());
    SnapshotCodecProvider codecs = new SnapshotCodecProvider(conf);
    TxMetricsCollector metrics = new TxMetricsCollector();
    return new TransactionManager(conf, new LocalFileTransactionStateStorage(conf, codecs, metrics), metrics);
  }

  /** A manager that keeps its state in memory only. */
  public static LocalTransactionService inMemory(Configuration base) {
    Configuration conf = new Configuration(base);
    TransactionManager manager = new TransactionManager(conf, new NoOpTransactionStateStorage(
        new SnapshotCodecProvider(conf)), new TxMetricsCollector());
    manager.startAndWait();
    return new LocalTransactionService(manager);
  }

  public TransactionSystemClient client() {
    return client;
  }

  public TransactionManager manager() {
    return manager;
  }

  /** Stops the manager; a persistent one writes a final snapshot of its state first. */
  @Override
  public void close() {
    manager.stopAndWait();
  }
}
