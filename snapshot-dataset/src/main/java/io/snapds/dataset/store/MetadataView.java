package io.snapds.dataset.store;

import java.time.Instant;
import org.apache.tephra.Transaction;

/**
 * The metadata of one dataset as one transaction sees it, read on demand: each method reads only
 * the rows it needs (the pointer row, one snapshot record, an index range) and caches them for
 * the rest of the transaction. Changes are recorded with the {@code put...}/{@code moveCurrent}
 * methods; reads after a change see it. The store writes only the columns that changed.
 *
 * <p>The methods come in groups, one interface each, as the rows do: the snapshot records and
 * their indexes ({@link SnapshotsView}), the current pointer, its history and the horizon
 * ({@link HistoryView}), key numbers ({@link KeyNumbersView}), run ids, source keys and fences
 * ({@link NameIndexView}), schemas ({@link SchemasView}), the outbox and delivered positions
 * ({@link OutboxView}), cleanup progress ({@link CleanupProgressView}) and a truncate's mark
 * ({@link TruncationView}). A caller that needs one group may take that interface.
 *
 * <p>Costs do not grow with the number of publishes ever made: {@code current()} is one row,
 * {@code snapshot} one row, {@code retained()}, {@code building()} and {@code awaitingCleanup()}
 * read index ranges as long as those sets are, and {@code history()}/{@code snapshots()} read
 * what the history horizon keeps.
 */
public interface MetadataView extends SnapshotsView, HistoryView, KeyNumbersView, NameIndexView, SchemasView,
    OutboxView, CleanupProgressView, TruncationView {
  /** The transaction the view reads in (write pointer, in-progress and invalid lists). */
  Transaction transaction();

  /**
   * The commit time of this transaction: the transaction manager's clock (encoded in the write
   * pointer) and never before the newest history entry, so times follow the commit order.
   */
  Instant commitTime();

  /** True when something was recorded. */
  boolean changed();
}
