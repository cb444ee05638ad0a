package io.snapds.dataset.store;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.snapds.dataset.CommitConflictException;
import io.snapds.dataset.CommitStateUnknownException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.StorageException;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;
import org.apache.tephra.TransactionConflictException;
import org.apache.tephra.TransactionFailureException;
import org.apache.tephra.TransactionNotInProgressException;
import org.apache.tephra.TransactionSystemClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata of one dataset, read and changed in Tephra transactions. The contract follows
 * Iceberg's {@code TableOperations}: {@link #update} reads the state as a fresh transaction sees
 * it, lets the operation derive the updated state (validating against that base, so validation
 * runs again on every retry), and commits the difference; a concurrent commit makes the
 * transaction conflict, and the policy retries from a fresh base. When the transaction service
 * fails during the commit itself, the outcome is reported as unknown, never as a failure.
 */
public final class MetadataStore {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataStore.class);

  private final DatasetId dataset;
  private final Connection connection;
  private final TableName metaTable;
  private final MetadataCodec codec;
  private final TransactionSystemClient txClient;
  private final RetryPolicy<Object> conflictRetry;

  public MetadataStore(DatasetId dataset, Connection connection, TransactionSystemClient txClient,
      int retries) {
    this.dataset = dataset;
    this.connection = connection;
    this.metaTable = dataset.metaTable();
    this.codec = new MetadataCodec(dataset);
    this.txClient = txClient;
    this.conflictRetry = RetryPolicy.builder()
        // a transaction that timed out certainly did not commit: like a conflict, retry afresh
        .handle(TransactionConflictException.class, TransactionNotInProgressException.class)
        .withMaxRetries(retries)
        .withBackoff(Duration.ofMillis(5), Duration.ofMillis(500))
        .withJitter(0.25)
        .build();
  }

  /**
   * A new transactional view of the metadata table, for a caller that runs its own transaction
   * and reads the state with {@link #read(TransactionAware)}.
   */
  public TransactionAware newTransactionAware() {
    return new TxMetaTable(connection, metaTable);
  }

  /** The state as the transaction last passed to {@code view.startTx} sees it. */
  public DatasetState read(TransactionAware view) {
    try {
      return codec.decode(((TxMetaTable) view).scan(new byte[0]));
    } catch (IOException e) {
      throw new StorageException("reading metadata of " + dataset, e);
    }
  }

  /** Reads the state in a short read-only transaction. */
  public DatasetState readLatest() {
    return update("read", (base, tx) -> new Change<>(base, base));
  }

  /** The result of one operation: the updated state to commit, and what to return. */
  public record Change<T>(DatasetState updated, T result) {}

  /** One metadata operation: derives the updated state from the base its transaction sees. */
  @FunctionalInterface
  public interface Operation<T> {
    Change<T> apply(DatasetState base, Transaction tx);
  }

  /**
   * Runs {@code operation} against a fresh base in a short transaction and commits its change,
   * retrying on conflict. Exceptions the operation throws (validation) end it without a retry.
   *
   * @throws CommitConflictException when every attempt conflicted
   * @throws CommitStateUnknownException when the transaction service failed during commit
   */
  public <T> T update(String operation, Operation<T> op) {
    try {
      return Failsafe.with(conflictRetry).get(() -> attempt(operation, op));
    } catch (FailsafeException e) {
      if (e.getCause() instanceof TransactionConflictException) {
        throw new CommitConflictException(dataset, operation, e.getCause());
      }
      if (e.getCause() instanceof TransactionNotInProgressException) {
        throw new StorageException(operation + " on " + dataset + " timed out on every attempt and did not commit",
            e.getCause());
      }
      throw new StorageException(operation + " on " + dataset, e.getCause());
    }
  }

  private <T> T attempt(String operation, Operation<T> op)
      throws TransactionConflictException, TransactionNotInProgressException {
    Transaction tx = txClient.startShort();
    TxMetaTable table = new TxMetaTable(connection, metaTable);
    table.startTx(tx);
    boolean done = false;
    try {
      DatasetState base = read(table);
      Change<T> change = op.apply(base, tx);
      if (change.updated() == base) {
        txClient.commitOrThrow(tx);
        done = true;
        return change.result();
      }
      codec.encodeChanges(base, change.updated(), table);
      Collection<byte[]> changes = table.getTxChanges();
      txClient.canCommitOrThrow(tx, changes);
      table.commitTx();
      commitOrUnknown(operation, tx);
      table.postTxCommit();
      done = true;
      return change.result();
    } catch (TransactionConflictException e) {
      LOG.debug("{} on {} conflicted, retrying from a fresh base", operation, dataset);
      throw e;
    } catch (TransactionNotInProgressException e) {
      LOG.info("{} on {} timed out before it committed (nothing committed), retrying: {}", operation, dataset,
          e.getMessage());
      throw e;
    } catch (TransactionFailureException e) {
      throw new StorageException(operation + " on " + dataset, e);
    } catch (CommitStateUnknownException e) {
      done = true; // never roll back a commit whose outcome is unknown
      throw e;
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new StorageException(operation + " on " + dataset, e);
    } finally {
      if (!done) {
        rollback(table, tx);
      }
    }
  }

  private void commitOrUnknown(String operation, Transaction tx)
      throws TransactionConflictException, TransactionNotInProgressException {
    try {
      txClient.commitOrThrow(tx);
    } catch (TransactionConflictException e) {
      throw e;
    } catch (TransactionNotInProgressException e) {
      // it timed out, and did not commit, if it is on the invalid list now (a committed
      // transaction never is); otherwise a retried commit call may have found it committed
      if (isInvalid(tx)) {
        throw e;
      }
      throw new CommitStateUnknownException(dataset, operation, e);
    } catch (TransactionFailureException | RuntimeException e) {
      throw new CommitStateUnknownException(dataset, operation, e);
    }
  }

  private boolean isInvalid(Transaction tx) {
    Transaction probe = txClient.startShort();
    try {
      return java.util.Arrays.stream(probe.getInvalids()).anyMatch(id -> id == tx.getTransactionId());
    } finally {
      txClient.abort(probe);
    }
  }

  private void rollback(TxMetaTable table, Transaction tx) {
    try {
      if (table.rollbackTx()) {
        txClient.abort(tx);
        return;
      }
    } catch (Exception e) {
      LOG.warn("rolling back metadata of {} failed; invalidating transaction {}", dataset,
          tx.getTransactionId(), e);
    }
    txClient.invalidate(tx.getTransactionId());
  }
}
