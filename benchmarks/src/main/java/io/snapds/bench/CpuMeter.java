package io.snapds.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this JVM's threads between two points, by kind of thread ({@link Profile#threadKind}),
 * plus the whole process (which also counts the JVM's own GC and JIT threads, invisible to the
 * thread bean). The benchmark's JVM hosts both the client and the region server, so this says how
 * much CPU each side of a read spent on it, which wall time on a shared 2-core machine does not:
 * a thread's CPU time does not grow while it waits for a core.
 */
final class CpuMeter {
  /** The process as a whole: every thread, the JVM's own included. */
  static final String PROCESS = "process";

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final Map<Long, String> KINDS = new HashMap<>();

  private final Map<Long, Long> threadNanos;
  private final long processNanos;

  private CpuMeter(Map<Long, Long> threadNanos, long processNanos) {
    this.threadNanos = threadNanos;
    this.processNanos = processNanos;
  }

  /** Whether this JVM measures thread CPU time; without it {@link #since} has only the process. */
  static boolean supported() {
    return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
  }

  /**
   * The calling thread's CPU time so far, cheaply: for short operations, where the cost of
   * {@link #now} itself (it reads every thread) would swamp the caller's own.
   */
  static long currentThreadNanos() {
    return supported() ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  /** The CPU time every live thread and the process have used so far. */
  static CpuMeter now() {
    Map<Long, Long> nanos = new HashMap<>();
    if (supported()) {
      long[] ids = THREADS.getAllThreadIds();
      long[] cpu = THREADS.getThreadCpuTime(ids);
      for (int i = 0; i < ids.length; i++) {
        if (cpu[i] >= 0) { // -1: the thread ended meanwhile
          nanos.put(ids[i], cpu[i]);
        }
      }
    }
    return new CpuMeter(nanos, OS.getProcessCpuTime());
  }

  /**
   * CPU nanoseconds used since {@code start}, by kind of thread and {@link #PROCESS}. A thread
   * that ended in between is missing (its time still counts in the process's).
   */
  Map<String, Long> since(CpuMeter start) {
    Map<String, Long> byKind = new HashMap<>();
    for (Map.Entry<Long, Long> e : threadNanos.entrySet()) {
      long used = e.getValue() - start.threadNanos.getOrDefault(e.getKey(), 0L);
      if (used > 0) {
        byKind.merge(kind(e.getKey()), used, Long::sum);
      }
    }
    byKind.put(PROCESS, processNanos - start.processNanos);
    return byKind;
  }

  private static synchronized String kind(long id) {
    String kind = KINDS.get(id);
    if (kind == null) {
      ThreadInfo info = THREADS.getThreadInfo(id);
      kind = info == null ? "other: ended" : Profile.threadKind(info.getThreadName());
      if (info != null) {
        KINDS.put(id, kind);
      }
    }
    return kind;
  }
}
