package io.snapds.dataset.store;

import io.snapds.dataset.CommitConflictException;
import io.snapds.dataset.CommitStateUnknownException;
import java.util.function.Function;
import org.apache.tephra.TransactionAware;

/**
 * The metadata of one dataset, read and changed in transactions. The contract follows Iceberg's
 * {@code TableOperations}: {@link #update} gives the operation a fresh {@link MetadataView},
 * the operation reads what it needs and records its changes on the view (validating against what
 * it read, so validation runs again on every retry), and the store commits exactly those changes.
 * A concurrent commit makes the attempt conflict and the operation runs again on a fresh view.
 *
 * <p>Two implementations: {@link HBaseMetadataStore} (Tephra transactions on the metadata
 * table, visibility decided on the client) and, in the test sources, an in-memory one that
 * lets the rules of the operations be tested without HBase.
 */
public interface MetadataStore {
  /** One metadata operation: reads from and records its changes on {@code view}. */
  @FunctionalInterface
  interface Operation<T> {
    T apply(MetadataView view);
  }

  /**
   * Runs {@code op} on a fresh view and commits what it changed, retrying on conflict. Exceptions
   * the operation throws (validation) end it without a retry and nothing is committed.
   *
   * @throws CommitConflictException when every attempt conflicted
   * @throws CommitStateUnknownException when the transaction service failed during commit
   */
  <T> T update(String operation, Operation<T> op);

  /**
   * The same for a deferrable step: maintenance whose work the next run redoes if this one does
   * not commit (cleanup's bookkeeping, trimming the metadata, cleanup fences). It gets a short
   * budget of retries instead of the dataset's {@code commit.retries}: under steady publishing a
   * long one would be waited out on every run, and losing is harmless. The caller catches the
   * {@link CommitConflictException} and leaves the work to the next run.
   *
   * @throws CommitConflictException when every attempt of the short budget conflicted
   * @throws CommitStateUnknownException when the transaction service failed during commit
   */
  <T> T updateDeferrable(String operation, Operation<T> op);

  /** Runs {@code reader} on a read-only view of the latest committed metadata. */
  <T> T read(Function<MetadataView, T> reader);

  /**
   * The same, for reads that may see the metadata as of a moment ago: the store may run them in a
   * transaction shared with other reads of this process for a bounded window (see
   * {@link ReadTransactions}); updates of this process are always seen. Checks that must not
   * miss a concurrent change (the re-check after a pin, a writer's fencing) use {@link #read}.
   */
  default <T> T readRecent(Function<MetadataView, T> reader) {
    return read(reader);
  }

  /**
   * A transactional handle for a caller that runs its own transaction (the dataset's Tephra
   * callbacks); after its {@code startTx}, {@link #view(TransactionAware)} reads through it.
   */
  TransactionAware newTransactionAware();

  /** A read-only view through a handle of {@link #newTransactionAware()} whose transaction started. */
  MetadataView view(TransactionAware aware);

  /**
   * Physically removes every metadata cell written by {@code failedTransactions} (transactions
   * on Tephra's invalid list, which never committed), so that truncating that list later cannot
   * make them visible. Returns the number of cells removed.
   */
  int removeVersionsOf(java.util.Collection<Long> failedTransactions);

  /**
   * Asks HBase to flush and major-compact the metadata table once this store has sent at least
   * {@code threshold} deletes (prunes, purges, cells of failed transactions) since it last did:
   * HBase keeps delete markers, and the versions they hide, until a major compaction. The
   * compaction runs in the background. Returns whether one was requested.
   */
  boolean compactDeletes(long threshold);

  /** Metadata bytes this store has fetched so far (for benchmarks and diagnostics). */
  long bytesRead();

  /**
   * Metadata read calls this store has made so far: a get, a batch of gets or a scan, each at
   * least one round trip (for tests, benchmarks and diagnostics). An operation whose count grows
   * with the snapshots it touches reads them one by one.
   */
  long readCalls();
}
