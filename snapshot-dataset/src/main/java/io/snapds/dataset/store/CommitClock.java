package io.snapds.dataset.store;

import java.time.Clock;
import java.time.Instant;
import org.apache.tephra.Transaction;
import org.apache.tephra.TxConstants;

/**
 * Where commit times come from. The default is the transaction manager's clock, which every
 * writer shares: Tephra makes each write pointer {@code millis * MAX_TX_PER_MS + n}. A writer's
 * own clock is never used, so a writer whose clock is off cannot reorder history.
 */
@FunctionalInterface
public interface CommitClock {
  CommitClock TRANSACTION_MANAGER = tx -> Instant.ofEpochMilli(tx.getWritePointer() / TxConstants.MAX_TX_PER_MS);

  Instant at(Transaction tx);

  /** Tests only: commit times from {@code clock} (still kept monotonic by the view). */
  static CommitClock of(Clock clock) {
    return tx -> clock.instant();
  }
}
