package io.snapds.it;

import io.snapds.dataset.testing.MiniCluster;
import java.io.InputStream;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.tephra.InvalidTruncateTimeException;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionCouldNotTakeSnapshotException;
import org.apache.tephra.TransactionFailureException;
import org.apache.tephra.TransactionNotInProgressException;
import org.apache.tephra.TransactionSystemClient;

/**
 * The mini cluster's transaction client, whichever manager is running now (it survives a
 * restart of the manager), with one-shot hooks that run just before the next conflict check of
 * a transaction that wrote something (a metadata commit: the publish, when armed right before
 * {@code commit()}) or before the next commit: the places where a fault is "mid-publish".
 */
final class HookedTxClient implements TransactionSystemClient {
  private final MiniCluster cluster;
  private final AtomicReference<Runnable> beforeConflictCheck = new AtomicReference<>();
  private final AtomicReference<Runnable> beforeCommit = new AtomicReference<>();

  HookedTxClient(MiniCluster cluster) {
    this.cluster = cluster;
  }

  /** Runs {@code fault} once, before the next conflict check of a transaction with changes. */
  void beforeNextConflictCheck(Runnable fault) {
    beforeConflictCheck.set(fault);
  }

  /** Runs {@code fault} once, before the next commit of a transaction whose changes were checked. */
  void beforeNextCommit(Runnable fault) {
    beforeCommit.set(fault);
  }

  private TransactionSystemClient delegate() {
    return cluster.txClient();
  }

  @Override
  public Transaction startShort() {
    return delegate().startShort();
  }

  @Override
  public Transaction startShort(int timeout) {
    return delegate().startShort(timeout);
  }

  @Override
  public Transaction startLong() {
    return delegate().startLong();
  }

  @Override
  public boolean canCommit(Transaction tx, Collection<byte[]> changes) throws TransactionNotInProgressException {
    return delegate().canCommit(tx, changes);
  }

  @Override
  public void canCommitOrThrow(Transaction tx, Collection<byte[]> changes) throws TransactionFailureException {
    if (!changes.isEmpty()) {
      Runnable fault = beforeConflictCheck.getAndSet(null);
      if (fault != null) {
        fault.run();
      }
    }
    delegate().canCommitOrThrow(tx, changes);
  }

  @Override
  public boolean commit(Transaction tx) throws TransactionNotInProgressException {
    return delegate().commit(tx);
  }

  @Override
  public void commitOrThrow(Transaction tx) throws TransactionFailureException {
    Runnable fault = beforeCommit.getAndSet(null);
    if (fault != null) {
      fault.run();
    }
    delegate().commitOrThrow(tx);
  }

  @Override
  public void abort(Transaction tx) {
    delegate().abort(tx);
  }

  @Override
  public boolean invalidate(long tx) {
    return delegate().invalidate(tx);
  }

  @Override
  public Transaction checkpoint(Transaction tx) throws TransactionNotInProgressException {
    return delegate().checkpoint(tx);
  }

  @Override
  public InputStream getSnapshotInputStream() throws TransactionCouldNotTakeSnapshotException {
    return delegate().getSnapshotInputStream();
  }

  @Override
  public String status() {
    return delegate().status();
  }

  @Override
  public void resetState() {
    delegate().resetState();
  }

  @Override
  public boolean truncateInvalidTx(Set<Long> invalidTxIds) {
    return delegate().truncateInvalidTx(invalidTxIds);
  }

  @Override
  public boolean truncateInvalidTxBefore(long time) throws InvalidTruncateTimeException {
    return delegate().truncateInvalidTxBefore(time);
  }

  @Override
  public int getInvalidSize() {
    return delegate().getInvalidSize();
  }

  @Override
  public void pruneNow() {
    delegate().pruneNow();
  }
}
