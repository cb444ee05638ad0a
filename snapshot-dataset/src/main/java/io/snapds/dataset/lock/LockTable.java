package io.snapds.dataset.lock;

import java.io.UncheckedIOException;
import io.snapds.dataset.StorageErrors;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.snapds.dataset.SnapshotId;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases, waiters and reader pins in a dataset's lock table. Every change of a lease is one
 * HBase {@code checkAndMutate} on the lock's row, so two callers can never both be granted:
 * <pre>
 *   L + lockName                     owner, token, acquired, expires    one row per lock
 *   W + lockName + 0x00 + waiterId   expires                            one row per waiting caller
 *   P + snapshotId(8) + pinId        owner, expires (family p)          one row per reader pin
 *   C                                snapshotId(8) = at, ..., below      cleanup began deleting these; the
 *                                    watermark: marks at or below it were dropped
 *   C + snapshotId(8)                at                                 the same mark, for earlier versions
 *   A + snapshotId(8) + attemptId    at [, rows, bytes, first, last]    a writer of a snapshot begun elsewhere
 *                                                                       (a task attempt): written before it
 *                                                                       sends, its counts once all it sent landed
 * </pre>
 * Reader pins are in a family of their own ({@link #PIN_FAMILY}) so that the reader role may
 * write them while the leases stay writable by writers only.
 * A free lock keeps its row with an empty owner and expiry 0, so that the token keeps growing
 * across grants. Times are the clients' clocks: keep leases much longer than the clock skew
 * between writer hosts.
 */
@InterfaceAudience.Private
public final class LockTable {
  private static final Logger LOG = LoggerFactory.getLogger(LockTable.class);
  /** The family of leases, waiters and cleaning marks (the writer's; readers may only read it). */
  public static final byte[] FAMILY = Bytes.toBytes("l");
  /** The family of reader pins, which the reader role may write (the rest of the table it may only read). */
  public static final byte[] PIN_FAMILY = Bytes.toBytes("p");
  private static final byte[] OWNER = Bytes.toBytes("owner");
  private static final byte[] TOKEN = Bytes.toBytes("token");
  private static final byte[] ACQUIRED = Bytes.toBytes("acquired");
  private static final byte[] EXPIRES = Bytes.toBytes("expires");
  private static final byte[] AT = Bytes.toBytes("at");
  private static final byte[] ROWS = Bytes.toBytes("rows");
  private static final byte[] BYTES = Bytes.toBytes("bytes");
  private static final byte[] FIRST = Bytes.toBytes("first");
  private static final byte[] LAST = Bytes.toBytes("last");
  /** The one cleaning row: a column per marked snapshot (its id) and the watermark {@link #BELOW}. */
  private static final byte[] CLEANING_ROW = {'C'};
  private static final byte[] BELOW = Bytes.toBytes("below");

  private final Connection connection;
  private final TableName name;
  private final Clock clock;
  private final LockObserver observer;

  public LockTable(Connection connection, TableName name, Clock clock) {
    this(connection, name, clock, LockObserver.NONE);
  }

  /** The same, telling {@code observer} of lock waits and takeovers (the dataset's metrics). */
  public LockTable(Connection connection, TableName name, Clock clock, LockObserver observer) {
    this.connection = connection;
    this.name = name;
    this.clock = clock;
    this.observer = observer == null ? LockObserver.NONE : observer;
  }

  /**
   * Takes the lock for {@code owner}, waiting up to the acquire timeout, retried by the
   * settings' policy.
   *
   * @throws TooManyWaitersException when every attempt found the waiting room full
   * @throws LockTimeoutException when every attempt waited out its timeout
   */
  public LockLease acquire(String lockName, String owner, LockSettings settings) {
    return acquire(lockName, owner, settings, 0);
  }

  /**
   * Like {@link #acquire(String, String, LockSettings)}, granting a token above {@code floor}
   * too: the caller passes the highest token its storage recorded (the dataset's fence for the
   * lock), so a lock table that was truncated or restored from an old backup, whose tokens
   * restart low, still grants a token that storage accepts.
   */
  public LockLease acquire(String lockName, String owner, LockSettings settings, long floor) {
    RetryPolicy<LockLease> retry = RetryPolicy.<LockLease>builder()
        .handle(LockUnavailableException.class)
        .withMaxAttempts(settings.retryAttempts())
        .withBackoff(settings.retryBackoff(), settings.retryMaxBackoff())
        .withJitter(0.25)
        .onRetry(e -> LOG.info("lock '{}' unavailable for '{}', retry {}: {}", lockName, owner,
            e.getAttemptCount(), e.getLastException().getMessage()))
        .build();
    return Failsafe.with(retry).get(() -> acquireOnce(lockName, owner, settings, floor));
  }

  /** One attempt: waits up to the acquire timeout, as one of at most max-waiters callers. */
  public LockLease acquireOnce(String lockName, String owner, LockSettings settings) {
    return acquireOnce(lockName, owner, settings, 0);
  }

  private LockLease acquireOnce(String lockName, String owner, LockSettings settings, long floor) {
    Optional<LockLease> granted = tryAcquire(lockName, owner, settings.leaseDuration(), floor);
    if (granted.isPresent()) {
      return granted.get();
    }
    if (settings.acquireTimeout().isZero()) {
      throw new LockTimeoutException(lockName, Duration.ZERO, holder(lockName));
    }
    byte[] waiterRow = waiterRow(lockName, UUID.randomUUID().toString());
    int waiting = liveWaiters(lockName);
    if (waiting >= settings.maxWaiters()) {
      throw new TooManyWaitersException(lockName, waiting, settings.maxWaiters(), holder(lockName));
    }
    put(new Put(waiterRow).addColumn(FAMILY, EXPIRES, Bytes.toBytes(
        clock.millis() + settings.acquireTimeout().toMillis() + settings.leaseDuration().toMillis())));
    long waitStarted = System.nanoTime();
    boolean got = false;
    try {
      RetryPolicy<Optional<LockLease>> poll = RetryPolicy.<Optional<LockLease>>builder()
          .handleResultIf(Optional::isEmpty)
          .withBackoff(Duration.ofMillis(20), Duration.ofMillis(500))
          .withJitter(0.3)
          .withMaxRetries(-1)
          .withMaxDuration(settings.acquireTimeout())
          .build();
      Optional<LockLease> lease = Failsafe.with(poll)
          .get(() -> tryAcquire(lockName, owner, settings.leaseDuration(), floor));
      got = lease.isPresent();
      return lease.orElseThrow(
          () -> new LockTimeoutException(lockName, settings.acquireTimeout(), holder(lockName)));
    } catch (FailsafeException e) {
      throw StorageErrors.translate(name, "wait for lock '" + lockName + "'", e.getCause());
    } finally {
      observer.waited(System.nanoTime() - waitStarted, got);
      delete(new Delete(waiterRow));
    }
  }

  /** Takes the lock if it is free or its lease has expired; empty if someone else holds it. */
  public Optional<LockLease> tryAcquire(String lockName, String owner, Duration lease) {
    return tryAcquire(lockName, owner, lease, 0);
  }

  /** Like {@link #tryAcquire(String, String, Duration)}, with a token above {@code floor}. */
  public Optional<LockLease> tryAcquire(String lockName, String owner, Duration lease, long floor) {
    byte[] row = lockRow(lockName);
    Result r = get(row);
    long now = clock.millis();
    long lastToken = 0;
    byte[] observedExpiry = null;
    if (!r.isEmpty()) {
      lastToken = Bytes.toLong(r.getValue(FAMILY, TOKEN));
      observedExpiry = r.getValue(FAMILY, EXPIRES);
      if (Bytes.toLong(observedExpiry) > now) {
        return Optional.empty();
      }
    }
    LockLease granted = new LockLease(lockName, owner, Math.max(lastToken, floor) + 1, Instant.ofEpochMilli(now),
        Instant.ofEpochMilli(now + lease.toMillis()));
    Put put = new Put(row).addColumn(FAMILY, OWNER, Bytes.toBytes(owner))
        .addColumn(FAMILY, TOKEN, Bytes.toBytes(granted.token()))
        .addColumn(FAMILY, ACQUIRED, Bytes.toBytes(now))
        .addColumn(FAMILY, EXPIRES, Bytes.toBytes(granted.expiresAt().toEpochMilli()));
    CheckAndMutate cam = r.isEmpty()
        ? CheckAndMutate.newBuilder(row).ifNotExists(FAMILY, TOKEN).build(put)
        : CheckAndMutate.newBuilder(row).ifMatches(allEqual(TOKEN, Bytes.toBytes(lastToken),
            EXPIRES, observedExpiry)).build(put);
    if (checkAndMutate(cam)) {
      if (lastToken > 0 && observedExpiry != null && Bytes.toLong(observedExpiry) > 0) {
        LOG.warn("lock '{}': took over an expired lease (token {}) for '{}'", lockName, lastToken, owner);
        observer.tookOver();
      }
      return Optional.of(granted);
    }
    return Optional.empty();
  }

  /**
   * Extends the lease by its duration from now.
   *
   * @throws LeaseLostException if the lease was taken over or broken
   */
  public LockLease renew(LockLease lease, Duration duration) {
    Instant expires = clock.instant().plus(duration);
    Put put = new Put(lockRow(lease.lockName()))
        .addColumn(FAMILY, EXPIRES, Bytes.toBytes(expires.toEpochMilli()));
    if (!checkAndMutate(ownedBy(lease, put))) {
      throw new LeaseLostException(lease);
    }
    return lease.renewedUntil(expires);
  }

  /** Releases the lease; a lease no longer held is left alone, with a warning. */
  public boolean release(LockLease lease) {
    if (!checkAndMutate(ownedBy(lease, freeing(lease.lockName())))) {
      LOG.warn("lock '{}' was not released by '{}': its lease (token {}) is no longer held",
          lease.lockName(), lease.owner(), lease.token());
      return false;
    }
    return true;
  }

  /**
   * Frees the lock if its last grant is still {@code token}, whoever holds it. One
   * {@code checkAndMutate}, no retry: a grant made after the caller read the token is a newer
   * lease that this break was not about. The caller fences {@code token} in storage first (see
   * {@code SnapshotDataset.breakLock}), so the holder can no longer publish whatever this returns.
   *
   * @return whether the row was freed (false: the lock was granted again meanwhile)
   */
  public boolean breakLock(String lockName, long token) {
    boolean freed = checkAndMutate(CheckAndMutate.newBuilder(lockRow(lockName))
        .ifEquals(FAMILY, TOKEN, Bytes.toBytes(token)).build(freeing(lockName)));
    if (freed) {
      LOG.warn("lock '{}' broken: lease with token {} revoked", lockName, token);
    }
    return freed;
  }

  public LockStatus status(String lockName) {
    Result r = get(lockRow(lockName));
    long token = r.isEmpty() ? 0 : Bytes.toLong(r.getValue(FAMILY, TOKEN));
    return new LockStatus(lockName, decode(lockName, r), token, liveWaiters(lockName));
  }

  /**
   * Deletes the row of {@code lockName} if nobody holds it (its lease expired or it was released)
   * and nobody waits for it: for locks of source keys no longer in use, whose rows would otherwise
   * stay for ever. Conditional on the token and expiry read, so a lock taken meanwhile stays.
   * The next acquire of that name starts its tokens from the floor its caller passes.
   */
  public boolean removeIfIdle(String lockName) {
    byte[] row = lockRow(lockName);
    Result r = get(row);
    if (r.isEmpty() || r.getValue(FAMILY, TOKEN) == null) {
      return false;
    }
    byte[] expires = r.getValue(FAMILY, EXPIRES);
    if (Bytes.toLong(expires) > clock.millis() || liveWaiters(lockName) > 0) {
      return false;
    }
    return checkAndMutate(CheckAndMutate.newBuilder(row)
        .ifMatches(allEqual(TOKEN, r.getValue(FAMILY, TOKEN), EXPIRES, expires)).build(new Delete(row)));
  }

  /** Every lock that has a row, with its status. */
  public List<LockStatus> statusAll() {
    List<LockStatus> out = new ArrayList<>();
    try (Table table = connection.getTable(name);
        ResultScanner rs = table.getScanner(new Scan().setRowPrefixFilter(new byte[] {'L'}))) {
      for (Result r : rs) {
        String name = Bytes.toString(r.getRow(), 1, r.getRow().length - 1);
        out.add(new LockStatus(name, decode(name, r), Bytes.toLong(r.getValue(FAMILY, TOKEN)),
            liveWaiters(name)));
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read the locks in " + name, e);
    }
    return out;
  }

  /** Records that a reader uses {@code snapshot} until {@code expires}; cleanup leaves it alone. */
  public String pin(SnapshotId snapshot, String owner, Instant expires) {
    String pinId = UUID.randomUUID().toString();
    put(new Put(pinRow(snapshot, pinId)).addColumn(PIN_FAMILY, OWNER, Bytes.toBytes(owner))
        .addColumn(PIN_FAMILY, EXPIRES, Bytes.toBytes(expires.toEpochMilli())));
    return pinId;
  }

  /**
   * Moves a pin's expiry from {@code previous} (what its holder last wrote) to {@code expires},
   * only if its row still says {@code previous}. Cleanup removes a lapsed pin with the same kind
   * of condition before it deletes anything, so the two never both succeed: a pin cleanup has
   * collected stays gone (its snapshot's rows may be deleted), and a pin renewed first holds.
   *
   * @return false if the pin is gone (lapsed and collected, or released)
   */
  public boolean renewPin(SnapshotId snapshot, String pinId, Instant previous, Instant expires) {
    return checkAndMutate(CheckAndMutate.newBuilder(pinRow(snapshot, pinId))
        .ifEquals(PIN_FAMILY, EXPIRES, Bytes.toBytes(previous.toEpochMilli()))
        .build(new Put(pinRow(snapshot, pinId)).addColumn(PIN_FAMILY, EXPIRES, Bytes.toBytes(expires.toEpochMilli()))));
  }

  public void unpin(SnapshotId snapshot, String pinId) {
    // only the pin family: a reader may write that family and nothing else of this table
    delete(new Delete(pinRow(snapshot, pinId)).addFamily(PIN_FAMILY));
  }

  /**
   * Records that cleanup is about to delete {@code snapshot}'s rows. Written before the first
   * delete, so a reader that checks it after reading ({@link #cleaningState}) learns whether any
   * row it missed may have been deleted under it. The mark is a column of the one cleaning row
   * {@code C} (read atomically with the row's watermark), and also, for readers of earlier
   * versions, the row {@code C} + id; both go ({@link #forgetCleaning}) once the snapshot's record
   * has passed the history horizon, the watermark then covering it.
   */
  public void markCleaning(SnapshotId snapshot) {
    byte[] at = Bytes.toBytes(clock.millis());
    try (Table table = connection.getTable(name)) {
      table.put(List.of(new Put(CLEANING_ROW).addColumn(FAMILY, snapshot.toBytes(), at),
          new Put(cleaningRow(snapshot)).addColumn(FAMILY, AT, at)));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "write " + name, e);
    }
  }

  /** Whether cleanup has begun (or finished) deleting {@code snapshot}'s rows and still marks it. */
  public boolean isCleaning(SnapshotId snapshot) {
    return cleaningState(snapshot).marked();
  }

  /**
   * What the lock table says of {@code snapshot}: marked (cleanup began deleting it), and the
   * watermark. One round trip (two gets in one batch, on the one region of this small table): the
   * mark column and the watermark come from one row, read atomically; the legacy row {@code C} + id
   * is what a cleanup of an earlier version writes.
   */
  public CleaningState cleaningState(SnapshotId snapshot) {
    try (Table table = connection.getTable(name)) {
      Result[] r = table.get(List.of(
          new Get(CLEANING_ROW).addColumn(FAMILY, snapshot.toBytes()).addColumn(FAMILY, BELOW),
          new Get(cleaningRow(snapshot)).addColumn(FAMILY, AT)));
      byte[] below = r[0].getValue(FAMILY, BELOW);
      boolean marked = r[0].containsColumn(FAMILY, snapshot.toBytes()) || !r[1].isEmpty();
      return new CleaningState(marked, below == null ? 0 : Bytes.toLong(below));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read " + name, e);
    }
  }

  /**
   * What a reader learns after its rows. {@code below}: the watermark, 0 if none. Every snapshot
   * whose rows cleanup began deleting is {@code marked}, or has an id at or below {@code below}
   * (its mark was dropped when its record passed the history horizon): a snapshot that is neither
   * still has all its rows; one at or below the watermark and unmarked must be asked of its record.
   */
  public record CleaningState(boolean marked, long below) {
    /** Whether the marks alone cannot tell: the snapshot is at or below the watermark. */
    public boolean coveredByWatermark(SnapshotId snapshot) {
      return !marked && snapshot.value() <= below;
    }
  }

  /** The cleaning marks and the watermark, as one cleanup reads them to decide what to forget. */
  public record CleaningMarks(List<SnapshotId> marks, Optional<Long> below) {}

  /** The snapshots that carry a cleaning mark (of either form), oldest first, and the watermark. */
  public CleaningMarks cleaningMarks() {
    java.util.TreeSet<SnapshotId> marks = new java.util.TreeSet<>();
    Optional<Long> below = Optional.empty();
    try (Table table = connection.getTable(name);
        ResultScanner rs = table.getScanner(new Scan().setRowPrefixFilter(CLEANING_ROW).addFamily(FAMILY))) {
      for (Result r : rs) {
        if (r.getRow().length == CLEANING_ROW.length) {
          for (byte[] q : r.getFamilyMap(FAMILY).keySet()) {
            if (Bytes.equals(q, BELOW)) {
              below = Optional.of(Bytes.toLong(r.getValue(FAMILY, BELOW)));
            } else if (q.length == SnapshotId.BYTES) {
              marks.add(SnapshotId.fromBytes(q));
            }
          }
        } else if (r.getRow().length == CLEANING_ROW.length + SnapshotId.BYTES) {
          marks.add(SnapshotId.fromBytes(Arrays.copyOfRange(r.getRow(), 1, 1 + SnapshotId.BYTES)));
        }
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read " + name, e);
    }
    return new CleaningMarks(List.copyOf(marks), below);
  }

  /**
   * Raises the watermark to {@code below} and drops the marks of {@code forget} (snapshots whose
   * records the history horizon deleted, all at or below {@code below}), in one atomic mutation of
   * the cleaning row, conditioned on the watermark still being {@code expected} (empty: none), so
   * that two cleanups never lower it; then the legacy rows of {@code forget}.
   *
   * @return false if another cleanup moved the watermark meanwhile (nothing changed; the next run
   *     forgets them)
   */
  public boolean forgetCleaning(long below, Collection<SnapshotId> forget, Optional<Long> expected) {
    for (SnapshotId id : forget) {
      if (id.value() > below) {
        throw new IllegalArgumentException("cleaning mark of " + id + " is above the watermark " + below);
      }
    }
    try (Table table = connection.getTable(name)) {
      RowMutations m = new RowMutations(CLEANING_ROW);
      m.add(new Put(CLEANING_ROW).addColumn(FAMILY, BELOW, Bytes.toBytes(below)));
      if (!forget.isEmpty()) {
        Delete d = new Delete(CLEANING_ROW);
        forget.forEach(id -> d.addColumns(FAMILY, id.toBytes()));
        m.add(d);
      }
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(CLEANING_ROW);
      CheckAndMutate cam = expected.isPresent()
          ? b.ifEquals(FAMILY, BELOW, Bytes.toBytes(expected.get())).build(m)
          : b.ifNotExists(FAMILY, BELOW).build(m);
      if (!table.checkAndMutate(cam).isSuccess()) {
        return false;
      }
      // the watermark covers them now: the legacy rows (read by readers of earlier versions) go too
      List<Delete> legacy = new ArrayList<>();
      forget.forEach(id -> legacy.add(new Delete(cleaningRow(id))));
      if (!legacy.isEmpty()) {
        table.delete(legacy);
      }
      return true;
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "write " + name, e);
    }
  }

  /**
   * Raises the watermark to at least {@code below} and drops every mark at or below it, retrying
   * while cleanups move the watermark. For a truncate: every snapshot begun before it is then
   * covered, so a reader of one asks its record, finds it gone, and fails instead of returning a
   * short result. Never lowers the watermark.
   */
  public void raiseWatermark(long below) {
    while (true) {
      CleaningMarks found = cleaningMarks();
      if (found.below().isPresent() && found.below().get() >= below) {
        return;
      }
      List<SnapshotId> covered = found.marks().stream().filter(id -> id.value() <= below).toList();
      if (forgetCleaning(below, covered, found.below())) {
        return;
      }
    }
  }

  /**
   * Records that a writer ({@code attemptId}, unique per writer) is about to send rows into
   * {@code snapshot}, which was begun elsewhere: written before the writer's first check that the
   * snapshot is still building, so that a publish which reads the records ({@link #attempts}) after
   * that check knows of it. The record lives {@code ttl} (HBase's cell TTL): twice the build's
   * maximum time, and a publish sums records only within that time (an older build counts its
   * stored rows), so no record it sums has expired; and no longer, so that a record nobody removed
   * (an attempt that died after writing it, once its snapshot was cleaned) does not stay. One put.
   */
  public void recordAttempt(SnapshotId snapshot, String attemptId, Duration ttl) {
    put(new Put(attemptRow(snapshot, attemptId)).addColumn(FAMILY, AT, Bytes.toBytes(clock.millis()))
        .setTTL(ttl.toMillis()));
  }

  /**
   * Records what the attempt {@code attemptId} stored in {@code snapshot}, written once every row
   * it sent has landed: {@code rows} rows and {@code bytes} bytes, keys from {@code first} to
   * {@code last} (both included). Only for counts that are exact (each key once, in ascending
   * order, nothing deleted). It lives {@code ttl}, as {@link #recordAttempt}'s record. One put.
   */
  public void attemptStored(SnapshotId snapshot, String attemptId, long rows, long bytes, byte[] first, byte[] last,
      Duration ttl) {
    put(new Put(attemptRow(snapshot, attemptId)).addColumn(FAMILY, ROWS, Bytes.toBytes(rows))
        .addColumn(FAMILY, BYTES, Bytes.toBytes(bytes)).addColumn(FAMILY, FIRST, first).addColumn(FAMILY, LAST, last)
        .setTTL(ttl.toMillis()));
  }

  /** Removes one attempt's record: an attempt that found its snapshot no longer building (one delete). */
  public void forgetAttempt(SnapshotId snapshot, String attemptId) {
    delete(new Delete(attemptRow(snapshot, attemptId)));
  }

  /** The attempts recorded for {@code snapshot} (one scan of its records, as many as attempts sent rows). */
  public List<AttemptRecord> attempts(SnapshotId snapshot) {
    byte[] prefix = attemptPrefix(snapshot);
    List<AttemptRecord> out = new ArrayList<>();
    try (Table table = connection.getTable(name);
        ResultScanner rs = table.getScanner(new Scan().setRowPrefixFilter(prefix).addFamily(FAMILY))) {
      for (Result r : rs) {
        String attempt = Bytes.toString(r.getRow(), prefix.length, r.getRow().length - prefix.length);
        byte[] rows = r.getValue(FAMILY, ROWS);
        out.add(rows == null ? new AttemptRecord(attempt, Optional.empty())
            : new AttemptRecord(attempt, Optional.of(new AttemptRecord.Stored(Bytes.toLong(rows),
                Bytes.toLong(r.getValue(FAMILY, BYTES)), r.getValue(FAMILY, FIRST), r.getValue(FAMILY, LAST)))));
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read " + name, e);
    }
    return out;
  }

  /**
   * Removes {@code snapshot}'s attempt records: its publish does once it has read them, and
   * cleanup does for whatever an attempt recorded later (one that outlived the publish) or for a
   * build that never published. A scan of its records and one batch of deletes.
   */
  public void forgetAttempts(SnapshotId snapshot) {
    forgetAttempts(attemptPrefix(snapshot));
  }

  /**
   * Removes every snapshot's attempt records: a truncate does, once no snapshot of the dataset
   * can publish any more (their records are gone) and before any new one begins.
   */
  public void forgetAllAttempts() {
    forgetAttempts(new byte[] {'A'});
  }

  private void forgetAttempts(byte[] prefix) {
    List<Delete> deletes = new ArrayList<>();
    try (Table table = connection.getTable(name);
        ResultScanner rs = table.getScanner(new Scan().setRowPrefixFilter(prefix)
            .addFamily(FAMILY).setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter()))) {
      for (Result r : rs) {
        deletes.add(new Delete(r.getRow()));
      }
      if (!deletes.isEmpty()) {
        table.delete(deletes);
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "write " + name, e);
    }
  }

  /** How many unexpired reader pins {@code snapshot} has. */
  public int livePins(SnapshotId snapshot) {
    return countLive(Bytes.add(new byte[] {'P'}, snapshot.toBytes()));
  }

  private Optional<LockLease> holder(String lockName, Result r) {
    return decode(lockName, r);
  }

  private LockLease holder(String lockName) {
    return holder(lockName, get(lockRow(lockName))).orElse(null);
  }

  private static Optional<LockLease> decode(String lockName, Result r) {
    if (r.isEmpty() || Bytes.toLong(r.getValue(FAMILY, EXPIRES)) == 0) {
      return Optional.empty();
    }
    return Optional.of(new LockLease(lockName, Bytes.toString(r.getValue(FAMILY, OWNER)),
        Bytes.toLong(r.getValue(FAMILY, TOKEN)),
        Instant.ofEpochMilli(Bytes.toLong(r.getValue(FAMILY, ACQUIRED))),
        Instant.ofEpochMilli(Bytes.toLong(r.getValue(FAMILY, EXPIRES)))));
  }

  private int liveWaiters(String lockName) {
    return countLive(Bytes.add(new byte[] {'W'}, Bytes.toBytes(lockName), new byte[] {0}));
  }

  /**
   * Counts the unexpired rows under {@code prefix} and removes the expired ones (waiters and pins
   * of callers that died). Each removal is conditioned on the expiry read, so a row renewed
   * meanwhile is kept, and counted as live.
   */
  private int countLive(byte[] prefix) {
    long now = clock.millis();
    int live = 0;
    try (Table table = connection.getTable(name);
        ResultScanner rs = table.getScanner(new Scan().setRowPrefixFilter(prefix))) {
      for (Result r : rs) {
        // pins live in the pin family; pins written before it existed, and waiters, in FAMILY
        byte[] family = r.getValue(PIN_FAMILY, EXPIRES) != null ? PIN_FAMILY : FAMILY;
        byte[] expires = r.getValue(family, EXPIRES);
        if (expires == null) {
          continue;
        }
        if (Bytes.toLong(expires) > now) {
          live++;
        } else if (!table.checkAndMutate(CheckAndMutate.newBuilder(r.getRow()).ifEquals(family, EXPIRES, expires)
            .build(new Delete(r.getRow()))).isSuccess()) {
          live++; // renewed between the read and the removal
        }
      }
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read " + name, e);
    }
    return live;
  }

  private static Put freeing(String lockName) {
    return new Put(lockRow(lockName)).addColumn(FAMILY, OWNER, new byte[0])
        .addColumn(FAMILY, EXPIRES, Bytes.toBytes(0L));
  }

  private static CheckAndMutate ownedBy(LockLease lease, Put put) {
    return CheckAndMutate.newBuilder(lockRow(lease.lockName()))
        .ifMatches(allEqual(TOKEN, Bytes.toBytes(lease.token()), OWNER, Bytes.toBytes(lease.owner())))
        .build(put);
  }

  private static Filter allEqual(byte[] q1, byte[] v1, byte[] q2, byte[] v2) {
    return new FilterList(FilterList.Operator.MUST_PASS_ALL, equal(q1, v1), equal(q2, v2));
  }

  private static SingleColumnValueFilter equal(byte[] qualifier, byte[] value) {
    SingleColumnValueFilter f = new SingleColumnValueFilter(FAMILY, qualifier, CompareOperator.EQUAL, value);
    f.setFilterIfMissing(true);
    return f;
  }

  private static byte[] lockRow(String lockName) {
    return Bytes.add(new byte[] {'L'}, Bytes.toBytes(lockName));
  }

  private static byte[] waiterRow(String lockName, String waiterId) {
    return Bytes.add(Bytes.add(new byte[] {'W'}, Bytes.toBytes(lockName), new byte[] {0}), Bytes.toBytes(waiterId));
  }

  private static byte[] cleaningRow(SnapshotId snapshot) {
    return Bytes.add(new byte[] {'C'}, snapshot.toBytes());
  }

  private static byte[] attemptPrefix(SnapshotId snapshot) {
    return Bytes.add(new byte[] {'A'}, snapshot.toBytes());
  }

  private static byte[] attemptRow(SnapshotId snapshot, String attemptId) {
    return Bytes.add(attemptPrefix(snapshot), Bytes.toBytes(attemptId));
  }

  private static byte[] pinRow(SnapshotId snapshot, String pinId) {
    return Bytes.add(new byte[] {'P'}, snapshot.toBytes(), Bytes.toBytes(pinId));
  }

  private Result get(byte[] row) {
    try (Table table = connection.getTable(name)) {
      return table.get(new Get(row).addFamily(FAMILY));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "read " + name, e);
    }
  }

  private void put(Put put) {
    try (Table table = connection.getTable(name)) {
      table.put(put);
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "write " + name, e);
    }
  }

  private void delete(Delete delete) {
    try (Table table = connection.getTable(name)) {
      table.delete(delete);
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "write " + name, e);
    }
  }

  private boolean checkAndMutate(CheckAndMutate cam) {
    try (Table table = connection.getTable(name)) {
      return table.checkAndMutate(cam).isSuccess();
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(name, "change a lease in " + name, e);
    }
  }
}
