package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactions that metadata reads outside an update run in.
 *
 * <p>By default ({@link #fresh}) every read starts a short Tephra transaction and aborts it:
 * it sees everything committed before it began, in every process. With a reuse window
 * ({@link #reusing}) the reads of one process share one transaction for up to that window, so
 * a process that reads often asks the transaction service twice per window instead of twice per
 * read. The price: a read sees what was committed when the shared transaction began, so a
 * commit made by <em>another process</em> is seen up to one window late. Commits made in this
 * process end the shared transaction ({@link #committed()}), so the next read sees them.
 *
 * <p>The shared transaction stays <em>in progress</em> while it is in use, and is aborted when
 * its window has passed and its last read returned. That is what makes it safe with the pruning
 * of metadata versions ({@link TxMetaTable#pruneBound()} keeps what every transaction in progress
 * can see) and with cleanup (which waits for short transactions in progress): a reused
 * transaction is never one that Tephra already forgot. Never reuse an aborted one instead.
 */
@InterfaceAudience.Private
public final class ReadTransactions {
  private static final Logger LOG = LoggerFactory.getLogger(ReadTransactions.class);
  /** Well under Tephra's default short-transaction timeout (30 s), so a shared one never times out. */
  public static final Duration MAX_WINDOW = Duration.ofSeconds(10);
  /**
   * Counts metadata commits made in this JVM, through any store: a shared transaction that began
   * before the count changed may miss a commit of this process, so it is not handed out again.
   */
  private static final AtomicLong COMMITS = new AtomicLong();

  private final TransactionSystemClient txClient;
  private final long windowNanos;
  private final LongSupplier nanoTime;
  private final ScheduledThreadPoolExecutor timer;
  private Shared current;

  private ReadTransactions(TransactionSystemClient txClient, Duration window, LongSupplier nanoTime) {
    this.txClient = checkNotNull(txClient, "transaction client");
    checkNotNull(window, "window");
    checkArgument(!window.isNegative() && window.compareTo(MAX_WINDOW) <= 0,
        "metadata read reuse window must be between 0 and %s, not %s", MAX_WINDOW, window);
    this.windowNanos = window.toNanos();
    this.nanoTime = checkNotNull(nanoTime, "nanoTime");
    if (windowNanos > 0) {
      // ends a shared transaction nobody reads any more; its thread goes away when idle
      timer = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "snapds-read-tx");
        t.setDaemon(true);
        return t;
      });
      timer.setKeepAliveTime(1, TimeUnit.SECONDS);
      timer.allowCoreThreadTimeOut(true);
      timer.setRemoveOnCancelPolicy(true);
    } else {
      timer = null;
    }
  }

  /** A fresh transaction for every read (the default). */
  public static ReadTransactions fresh(TransactionSystemClient txClient) {
    return new ReadTransactions(txClient, Duration.ZERO, System::nanoTime);
  }

  /** Reads of this process share a transaction for up to {@code window} (at most {@link #MAX_WINDOW}). */
  public static ReadTransactions reusing(TransactionSystemClient txClient, Duration window) {
    return new ReadTransactions(txClient, window, System::nanoTime);
  }

  /** Tests: the same, with the time the window is measured by. */
  public static ReadTransactions reusing(TransactionSystemClient txClient, Duration window, LongSupplier nanoTime) {
    return new ReadTransactions(txClient, window, nanoTime);
  }

  public Duration window() {
    return Duration.ofNanos(windowNanos);
  }

  /** Says that a metadata commit of this process may have happened; later reads must see it. */
  static void committed() {
    COMMITS.incrementAndGet();
  }

  /** A transaction in progress to read in; {@link Lease#close()} it when the read is done. */
  public Lease acquire() {
    if (windowNanos == 0) {
      Shared s = new Shared(txClient.startShort(), 0, 0);
      s.retired = true;
      s.users = 1;
      return new Lease(s);
    }
    Shared retired = null;
    Lease lease;
    synchronized (this) {
      long now = nanoTime.getAsLong();
      if (current == null || now - current.startedNanos >= windowNanos || current.commits != COMMITS.get()) {
        retired = current;
        current = null;
        long commits = COMMITS.get(); // read before the start: a commit racing with it retires it next time
        Shared s = new Shared(txClient.startShort(), now, commits);
        current = s;
        timer.schedule(() -> expire(s), windowNanos, TimeUnit.NANOSECONDS);
      }
      current.users++;
      lease = new Lease(current);
      if (retired != null) {
        retired.retired = true;
        if (retired.users > 0) {
          retired = null; // its last reader aborts it
        }
      }
    }
    if (retired != null) {
      abort(retired);
    }
    return lease;
  }

  private void expire(Shared s) {
    synchronized (this) {
      if (current != s) {
        return;
      }
      current = null;
      s.retired = true;
      if (s.users > 0) {
        return;
      }
    }
    abort(s);
  }

  private void release(Shared s) {
    synchronized (this) {
      s.users--;
      if (!s.retired || s.users > 0) {
        return;
      }
    }
    abort(s);
  }

  private void abort(Shared s) {
    try {
      txClient.abort(s.tx);
    } catch (RuntimeException e) {
      // a read-only transaction: if the abort is lost, Tephra times it out, and nothing it wrote exists
      LOG.debug("aborting read transaction {} failed: {}", s.tx.getTransactionId(), e.toString());
    }
  }

  /** A transaction shared by the reads of one window. */
  private static final class Shared {
    final Transaction tx;
    final long startedNanos;
    final long commits;
    int users;
    boolean retired;

    Shared(Transaction tx, long startedNanos, long commits) {
      this.tx = tx;
      this.startedNanos = startedNanos;
      this.commits = commits;
    }
  }

  /** One read's use of a transaction. */
  public final class Lease implements AutoCloseable {
    private final Shared shared;
    private boolean closed;

    private Lease(Shared shared) {
      this.shared = shared;
    }

    public Transaction transaction() {
      return shared.tx;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        release(shared);
      }
    }
  }
}
