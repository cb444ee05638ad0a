package io.snapds.spark;

import io.snapds.dataset.read.DiffRead;
import io.snapds.dataset.read.PinRegistry;
import io.snapds.dataset.read.SnapshotRead;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;

/**
 * The reader pins of the driver's queries: each scan's pin is held in the core's
 * {@link PinRegistry} (renewed every third of its time-to-live while held) under a holder named
 * after the SQL execution that planned its partitions, {@code spark:<application>:<execution id>:...},
 * and released when Spark posts that execution's end (a listener on the driver's listener bus,
 * registered once per SparkContext), whether the query succeeded or failed. Partitions planned
 * outside an SQL execution (an RDD made from the scan by hand) are released when the application
 * ends. If the driver dies, its pins lapse at their time-to-live.
 */
final class ExecutionPins {
  /** Holders by SQL execution id. */
  private static final Map<String, Set<String>> BY_EXECUTION = new ConcurrentHashMap<>();
  private static final Set<SparkContext> LISTENING = ConcurrentHashMap.newKeySet();
  private static final String OUTSIDE = "none";

  private ExecutionPins() {}

  /**
   * Holds {@code read} (and closes {@code resources} with it) until the end of the SQL execution
   * the calling thread runs, or of the application.
   */
  static void hold(SnapshotRead read, AutoCloseable... resources) {
    PinRegistry.hold(holder(), read, resources);
  }

  /** {@link #hold(SnapshotRead, AutoCloseable...)} for both pins of a diff. */
  static void hold(DiffRead read, AutoCloseable... resources) {
    String holder = holder();
    PinRegistry.hold(holder, read.before(), resources);
    PinRegistry.hold(holder, read.after());
  }

  /** A new holder under the SQL execution the calling thread runs (or none). */
  private static String holder() {
    SparkContext sc = SparkContext.getOrCreate();
    listen(sc);
    String execution = sc.getLocalProperty("spark.sql.execution.id");
    String key = execution == null ? OUTSIDE : execution;
    String holder = "spark:" + sc.applicationId() + ":" + key + ":" + UUID.randomUUID();
    BY_EXECUTION.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(holder);
    return holder;
  }

  /** Releases the pins held for SQL execution {@code executionId}; returns how many holders it released. */
  static int releaseExecution(String executionId) {
    Set<String> holders = BY_EXECUTION.remove(executionId);
    int n = 0;
    if (holders != null) {
      for (String h : holders) {
        n += PinRegistry.release(h) ? 1 : 0;
      }
    }
    return n;
  }

  /** How many SQL executions hold pins in this driver now. */
  static int heldExecutions() {
    return BY_EXECUTION.size();
  }

  private static void listen(SparkContext sc) {
    if (LISTENING.add(sc)) {
      sc.addSparkListener(new SparkListener() {
        @Override
        public void onOtherEvent(SparkListenerEvent event) {
          if (event instanceof SparkListenerSQLExecutionEnd end) {
            releaseExecution(String.valueOf(end.executionId()));
          }
        }

        @Override
        public void onApplicationEnd(SparkListenerApplicationEnd end) {
          for (String execution : Set.copyOf(BY_EXECUTION.keySet())) {
            releaseExecution(execution);
          }
          LISTENING.remove(sc);
        }
      });
    }
  }
}
