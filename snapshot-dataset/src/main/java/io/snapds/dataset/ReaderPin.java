package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.lock.LockTable;
import java.time.Clock;
import java.time.Duration;

/**
 * A reader's claim on one snapshot, recorded in the lock table: while it is live (not released,
 * not expired), cleanup keeps the snapshot's rows even if the snapshot has expired. For readers
 * that cannot hold a Tephra transaction open, such as a MapReduce job spread over many tasks.
 * Renew it before its time-to-live runs out; release it when done.
 */
public final class ReaderPin implements AutoCloseable {
  private final LockTable locks;
  private final Clock clock;
  private final SnapshotId snapshot;
  private final String owner;
  private final String pinId;

  ReaderPin(LockTable locks, Clock clock, SnapshotId snapshot, String owner, Duration ttl) {
    checkArgument(ttl != null && ttl.toMillis() > 0, "pin time-to-live must be > 0, got %s", ttl);
    this.locks = locks;
    this.clock = clock;
    this.snapshot = snapshot;
    this.owner = owner;
    this.pinId = locks.pin(snapshot, owner, clock.instant().plus(ttl));
  }

  public SnapshotId snapshotId() {
    return snapshot;
  }

  public String pinId() {
    return pinId;
  }

  /** Extends the pin to {@code ttl} from now. */
  public void renew(Duration ttl) {
    checkArgument(ttl != null && ttl.toMillis() > 0, "pin time-to-live must be > 0, got %s", ttl);
    locks.renewPin(snapshot, pinId, owner, clock.instant().plus(ttl));
  }

  /** Releases the pin; idempotent. */
  @Override
  public void close() {
    locks.unpin(snapshot, pinId);
  }

  @Override
  public String toString() {
    return "ReaderPin{snapshot=" + snapshot + ", owner=" + owner + ", id=" + pinId + "}";
  }
}
