package io.snapds.dataset.testing;

import java.io.InputStream;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.tephra.InvalidTruncateTimeException;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionConflictException;
import org.apache.tephra.TransactionCouldNotTakeSnapshotException;
import org.apache.tephra.TransactionFailureException;
import org.apache.tephra.TransactionNotInProgressException;
import org.apache.tephra.TransactionSystemClient;

/**
 * The real transaction client with failures injected on demand, after Iceberg's
 * {@code TestTables.failCommits(n)}: the next {@code n} conflict checks report a conflict, or the
 * next {@code n} commits fail as if the service went away (outcome unknown to the caller).
 */
public final class FaultyTxClient implements TransactionSystemClient {
  private final TransactionSystemClient delegate;
  private final AtomicInteger conflicts = new AtomicInteger();
  private final AtomicInteger conflictsInjected = new AtomicInteger();
  private final AtomicInteger commitFailures = new AtomicInteger();
  private final Set<Long> failingCommitsOf = ConcurrentHashMap.newKeySet();
  private final AtomicInteger truncateFailures = new AtomicInteger();
  private final AtomicInteger notInProgressCommits = new AtomicInteger();

  public FaultyTxClient(TransactionSystemClient delegate) {
    this.delegate = delegate;
  }

  /** The next {@code n} conflict checks fail with a conflict. */
  public void failConflictChecks(int n) {
    conflicts.set(n);
  }

  /**
   * Conflicts injected so far (by {@link #failConflictChecks}): the lost races, hence the
   * attempts the retry policies made and lost.
   */
  public int conflictsInjected() {
    return conflictsInjected.get();
  }

  /** The next {@code n} commits fail before reaching the service. */
  public void failCommits(int n) {
    commitFailures.set(n);
  }

  /** Every commit of transaction {@code txId} fails as if the service went away. */
  public void failCommitsOf(long txId) {
    failingCommitsOf.add(txId);
  }

  /** The next {@code n} calls to {@code truncateInvalidTx} fail as if the service went away. */
  public void failTruncates(int n) {
    truncateFailures.set(n);
  }

  /**
   * The next {@code n} commits are refused as Tephra refuses a transaction that timed out: the
   * transaction is invalidated and the commit throws {@link TransactionNotInProgressException}.
   */
  public void timeOutCommits(int n) {
    notInProgressCommits.set(n);
  }

  @Override
  public Transaction startShort() {
    return delegate.startShort();
  }

  @Override
  public Transaction startShort(int timeout) {
    return delegate.startShort(timeout);
  }

  @Override
  public Transaction startLong() {
    return delegate.startLong();
  }

  @Override
  public boolean canCommit(Transaction tx, Collection<byte[]> changes) throws TransactionNotInProgressException {
    if (conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      conflictsInjected.incrementAndGet();
      return false;
    }
    return delegate.canCommit(tx, changes);
  }

  @Override
  public void canCommitOrThrow(Transaction tx, Collection<byte[]> changes) throws TransactionFailureException {
    if (!changes.isEmpty() && conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      conflictsInjected.incrementAndGet();
      throw new TransactionConflictException(tx.getTransactionId(), "injected", "FaultyTxClient");
    }
    delegate.canCommitOrThrow(tx, changes);
  }

  @Override
  public boolean commit(Transaction tx) throws TransactionNotInProgressException {
    return delegate.commit(tx);
  }

  @Override
  public void commitOrThrow(Transaction tx) throws TransactionFailureException {
    if (failingCommitsOf.contains(tx.getTransactionId())
        || commitFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new TransactionFailureException("injected: transaction service unreachable during commit");
    }
    if (notInProgressCommits.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      delegate.invalidate(tx.getTransactionId());
      throw new TransactionNotInProgressException("injected: transaction " + tx.getTransactionId()
          + " is not in progress (timed out)");
    }
    delegate.commitOrThrow(tx);
  }

  @Override
  public void abort(Transaction tx) {
    delegate.abort(tx);
  }

  @Override
  public boolean invalidate(long tx) {
    return delegate.invalidate(tx);
  }

  @Override
  public Transaction checkpoint(Transaction tx) throws TransactionNotInProgressException {
    return delegate.checkpoint(tx);
  }

  @Override
  public InputStream getSnapshotInputStream() throws TransactionCouldNotTakeSnapshotException {
    return delegate.getSnapshotInputStream();
  }

  @Override
  public String status() {
    return delegate.status();
  }

  @Override
  public void resetState() {
    delegate.resetState();
  }

  @Override
  public boolean truncateInvalidTx(Set<Long> invalidTxIds) {
    if (truncateFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IllegalStateException("injected: transaction service unreachable during truncate");
    }
    return delegate.truncateInvalidTx(invalidTxIds);
  }

  @Override
  public boolean truncateInvalidTxBefore(long time) throws InvalidTruncateTimeException {
    return delegate.truncateInvalidTxBefore(time);
  }

  @Override
  public int getInvalidSize() {
    return delegate.getInvalidSize();
  }

  @Override
  public void pruneNow() {
    delegate.pruneNow();
  }
}
