package io.snapds.dataset;

import java.io.InputStream;
import java.util.Collection;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.tephra.InvalidTruncateTimeException;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionCouldNotTakeSnapshotException;
import org.apache.tephra.TransactionFailureException;
import org.apache.tephra.TransactionNotInProgressException;
import org.apache.tephra.TransactionSystemClient;

/**
 * A dataset's view of Tephra's client, where its unchecked failures become typed: Tephra's
 * clients report an unreachable or stopped service with plain {@code RuntimeException}s (the
 * Thrift client's "Thrift error", the in-process manager's "not running"), which would otherwise
 * escape the library's error hierarchy from any operation. Checked exceptions (conflicts,
 * transactions no longer in progress) pass through unchanged: the callers handle them.
 */
final class TypedErrorsTxClient implements TransactionSystemClient {
  private final DatasetId dataset;
  private final TransactionSystemClient delegate;

  private TypedErrorsTxClient(DatasetId dataset, TransactionSystemClient delegate) {
    this.dataset = dataset;
    this.delegate = delegate;
  }

  static TransactionSystemClient wrap(DatasetId dataset, TransactionSystemClient client) {
    return client instanceof TypedErrorsTxClient typed && typed.dataset.equals(dataset) ? client
        : new TypedErrorsTxClient(dataset, client);
  }

  /** The client {@code client} wraps, or itself. */
  static TransactionSystemClient unwrap(TransactionSystemClient client) {
    return client instanceof TypedErrorsTxClient typed ? typed.delegate : client;
  }

  private <T> T call(String what, Supplier<T> call) {
    return this.<T, RuntimeException>checked(what, call::get);
  }

  private interface Checked<T, E extends Exception> {
    T get() throws E;
  }

  private <T, E extends Exception> T checked(String what, Checked<T, E> call) throws E {
    try {
      return call.get();
    } catch (SnapshotDatasetException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new TransactionServiceUnavailableException(dataset, what, e);
    }
  }

  @Override
  public Transaction startShort() {
    return call("start a transaction", delegate::startShort);
  }

  @Override
  public Transaction startShort(int timeout) {
    return call("start a transaction", () -> delegate.startShort(timeout));
  }

  @Override
  public Transaction startLong() {
    return call("start a long transaction", delegate::startLong);
  }

  @Override
  public boolean canCommit(Transaction tx, Collection<byte[]> changes) throws TransactionNotInProgressException {
    return checked("check transaction " + tx.getTransactionId() + " for conflicts", () -> delegate.canCommit(tx, changes));
  }

  @Override
  public void canCommitOrThrow(Transaction tx, Collection<byte[]> changes) throws TransactionFailureException {
    checked("check transaction " + tx.getTransactionId() + " for conflicts", () -> {
      delegate.canCommitOrThrow(tx, changes);
      return null;
    });
  }

  @Override
  public boolean commit(Transaction tx) throws TransactionNotInProgressException {
    return checked("commit transaction " + tx.getTransactionId(), () -> delegate.commit(tx));
  }

  @Override
  public void commitOrThrow(Transaction tx) throws TransactionFailureException {
    checked("commit transaction " + tx.getTransactionId(), () -> {
      delegate.commitOrThrow(tx);
      return null;
    });
  }

  @Override
  public void abort(Transaction tx) {
    call("abort transaction " + tx.getTransactionId(), () -> {
      delegate.abort(tx);
      return null;
    });
  }

  @Override
  public boolean invalidate(long tx) {
    return call("invalidate transaction " + tx, () -> delegate.invalidate(tx));
  }

  @Override
  public Transaction checkpoint(Transaction tx) throws TransactionNotInProgressException {
    return checked("checkpoint transaction " + tx.getTransactionId(), () -> delegate.checkpoint(tx));
  }

  @Override
  public InputStream getSnapshotInputStream() throws TransactionCouldNotTakeSnapshotException {
    return checked("read the transaction state", delegate::getSnapshotInputStream);
  }

  @Override
  public String status() {
    return call("read the transaction service status", delegate::status);
  }

  @Override
  public void resetState() {
    call("reset the transaction state", () -> {
      delegate.resetState();
      return null;
    });
  }

  @Override
  public boolean truncateInvalidTx(Set<Long> invalidTxIds) {
    return call("remove transactions " + invalidTxIds + " from the invalid list",
        () -> delegate.truncateInvalidTx(invalidTxIds));
  }

  @Override
  public boolean truncateInvalidTxBefore(long time) throws InvalidTruncateTimeException {
    return checked("truncate the invalid list", () -> delegate.truncateInvalidTxBefore(time));
  }

  @Override
  public int getInvalidSize() {
    return call("read the invalid list", delegate::getInvalidSize);
  }

  @Override
  public void pruneNow() {
    call("prune", () -> {
      delegate.pruneNow();
      return null;
    });
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
