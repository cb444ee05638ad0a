package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.PinKeeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one process-wide place where the pins of reads that outlive the call that planned them are
 * held: a MapReduce job's (until its client releases it), a Hive query's (until its hook does), a
 * CDAP run's (until the source's {@code onRunFinish}). Each {@link SnapshotRead} is held under a
 * holder, a name the engine gives its job, query or run (prefixed by the engine, such as
 * {@code hive:<query id>}); a holder may hold several reads, each under its own key. While held, a
 * read's pin is renewed every third of its time-to-live by a {@link PinKeeper} (one shared daemon thread), so a job that
 * outlasts the time-to-live stays protected as long as this process lives; if the process dies,
 * the pin lapses at its time-to-live. {@link #release} releases every read of a holder and closes
 * what was held with it (the connection a job's pins were taken through).
 *
 * <p>Cost: holding and releasing are map operations and one lock table write per pin; each
 * renewal is one lock table check-and-put per held read.
 */
@InterfaceAudience.Private
public final class PinRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(PinRegistry.class);
  private static final Map<String, Holder> HOLDERS = new ConcurrentHashMap<>();

  /** What one holder holds: its reads by key, and what closes with them. */
  private static final class Holder {
    final Map<Object, Held> reads = new ConcurrentHashMap<>();
    final List<AutoCloseable> resources = new ArrayList<>();
  }

  private record Held(SnapshotRead read, PinKeeper keeper, Instant since) {}

  private PinRegistry() {}

  /**
   * Holds {@code read} under {@code holder} (with its own key) and renews its pin until the holder
   * is released; {@code resources} (the connection the read was taken through) close with it.
   *
   * @throws IllegalArgumentException if {@code read} holds no pin of its own
   */
  public static SnapshotRead hold(String holder, SnapshotRead read, AutoCloseable... resources) {
    checkNotNull(read, "read must not be null");
    Holder h = holder(holder);
    synchronized (h) {
      h.resources.addAll(List.of(resources));
      h.reads.put(new Object(), held(read));
    }
    return read;
  }

  /**
   * The read held under {@code holder} and {@code key}, or, the first time, the one {@code pin}
   * takes, then held and renewed: every call of one query (Hive calls the storage handler many
   * times while it compiles and runs one) gets the same snapshot and takes one pin.
   */
  public static SnapshotRead holdOnce(String holder, Object key, Supplier<SnapshotRead> pin) {
    checkNotNull(key, "key must not be null");
    checkNotNull(pin, "pin must not be null");
    return holder(holder).reads.computeIfAbsent(key, k -> held(pin.get())).read();
  }

  private static Holder holder(String holder) {
    checkNotNull(holder, "holder must not be null");
    checkArgument(!holder.isBlank(), "holder must not be blank, got '%s'", holder);
    return HOLDERS.computeIfAbsent(holder, h -> new Holder());
  }

  private static Held held(SnapshotRead read) {
    checkArgument(read.pin().isPresent(), "%s holds no pin of its own: nothing to hold", read);
    // the core's keeper renews every third of the time-to-live and stops when the pin is gone
    return new Held(read, new PinKeeper(read.pin().get(), read.ttl().orElseThrow()), Instant.now());
  }

  /** The reads held under {@code holder}, in no particular order; empty when none. */
  public static List<SnapshotRead> held(String holder) {
    Holder h = HOLDERS.get(holder);
    return h == null ? List.of() : h.reads.values().stream().map(Held::read).toList();
  }

  /** How many holders hold reads in this process. */
  public static int holders() {
    return HOLDERS.size();
  }

  /**
   * Stops renewing and releases every read held under {@code holder}, then closes what was held
   * with them. Returns whether the holder held anything. A pin whose release fails lapses at its
   * time-to-live; the failure is logged, not thrown (the job or query is over either way).
   */
  public static boolean release(String holder) {
    Holder h = holder == null ? null : HOLDERS.remove(holder);
    if (h == null) {
      return false;
    }
    synchronized (h) {
      for (Held held : h.reads.values()) {
        try {
          held.keeper().close(); // stops renewing and releases the pin
        } catch (RuntimeException e) {
          LOG.warn("releasing {} failed; its pin lapses at its time-to-live: {}", held.read(), e.toString());
        }
      }
      for (AutoCloseable resource : h.resources) {
        try {
          resource.close();
        } catch (Exception e) {
          LOG.warn("closing {} held for {} failed: {}", resource, holder, e.toString());
        }
      }
    }
    return true;
  }

  /**
   * Releases the holders whose names start with {@code prefix} and that hold a read taken at least
   * {@code age} ago: for engines whose end-of-job callback may never come (a Hive server without
   * the query hook). Returns how many holders were released.
   */
  public static int releaseOlderThan(String prefix, Duration age) {
    checkNotNull(prefix, "prefix must not be null");
    Instant before = Instant.now().minus(age);
    int released = 0;
    for (Map.Entry<String, Holder> e : HOLDERS.entrySet()) {
      if (e.getKey().startsWith(prefix)
          && e.getValue().reads.values().stream().anyMatch(h -> !h.since().isAfter(before))
          && release(e.getKey())) {
        released++;
      }
    }
    return released;
  }
}
