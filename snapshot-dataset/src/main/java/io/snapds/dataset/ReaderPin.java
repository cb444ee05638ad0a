package io.snapds.dataset;

import io.snapds.dataset.lock.LockTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reader's claim on one snapshot, recorded in the lock table: while it is live (not released,
 * not expired), cleanup keeps the snapshot's rows even if the snapshot has expired. For readers
 * that cannot hold a Tephra transaction open, such as a MapReduce job spread over many tasks.
 * Renew it before its time-to-live runs out; release it when done.
 */
public final class ReaderPin implements AutoCloseable {
  private final LockTable locks;
  private final DatasetId dataset;
  private final Clock clock;
  private final SnapshotId snapshot;
  private final String owner;
  private final String pinId;
  private volatile Instant expires;
  private final AtomicInteger held;
  private final AtomicBoolean released = new AtomicBoolean();

  ReaderPin(LockTable locks, DatasetId dataset, Clock clock, SnapshotId snapshot, String owner, Duration ttl) {
    this(locks, dataset, clock, snapshot, owner, ttl, new AtomicInteger());
  }

  /** {@code held}: the count of pins this process holds on the dataset (its metrics' gauge), moved by this pin. */
  ReaderPin(LockTable locks, DatasetId dataset, Clock clock, SnapshotId snapshot, String owner, Duration ttl,
      AtomicInteger held) {
    Durations.checkPositive(ttl, "pin time-to-live");
    this.locks = locks;
    this.dataset = dataset;
    this.clock = clock;
    this.snapshot = snapshot;
    this.owner = owner;
    Instant until = clock.instant().plus(ttl);
    this.pinId = locks.pin(snapshot, owner, until);
    this.expires = until;
    this.held = held;
    held.incrementAndGet();
  }

  public SnapshotId snapshotId() {
    return snapshot;
  }

  public String pinId() {
    return pinId;
  }

  /** When the pin lapses unless renewed. */
  public Instant expiresAt() {
    return expires;
  }

  /**
   * Extends the pin to {@code ttl} from now. A pin that lapsed can be renewed as long as cleanup
   * has not collected it (then nothing of its snapshot was deleted yet).
   *
   * @throws SnapshotNotAvailableException if the pin is gone: it lapsed and cleanup collected it
   *     (the snapshot's rows may be deleted), or it was released; take a new pin instead
   */
  public synchronized void renew(Duration ttl) {
    Durations.checkPositive(ttl, "pin time-to-live");
    Instant until = clock.instant().plus(ttl);
    if (!locks.renewPin(snapshot, pinId, expires, until)) {
      throw new SnapshotNotAvailableException(dataset, "reader pin " + pinId + " of '" + owner + "' on snapshot "
          + snapshot + " is gone: it lapsed at " + expires + " and cleanup collected it (or it was released),"
          + " so the snapshot's rows may be deleted; pin a readable snapshot again");
    }
    expires = until;
  }

  /** Releases the pin; idempotent. */
  @Override
  public void close() {
    if (released.compareAndSet(false, true)) {
      held.decrementAndGet();
    }
    locks.unpin(snapshot, pinId);
  }

  @Override
  public String toString() {
    return "ReaderPin{snapshot=" + snapshot + ", owner=" + owner + ", id=" + pinId + "}";
  }
}
