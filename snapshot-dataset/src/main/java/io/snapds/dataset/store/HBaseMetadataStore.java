package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.snapds.dataset.AccessDeniedException;
import io.snapds.dataset.CommitConflictException;
import io.snapds.dataset.CommitStateUnknownException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetRole;
import io.snapds.dataset.StorageErrors;
import io.snapds.dataset.StorageException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;
import org.apache.tephra.TransactionConflictException;
import org.apache.tephra.TransactionFailureException;
import org.apache.tephra.TransactionNotInProgressException;
import org.apache.tephra.TransactionSystemClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MetadataStore} on the dataset's HBase metadata table with Tephra transactions.
 *
 * <p>An update runs in a short transaction: the operation reads through a {@link LayoutView}
 * (only the rows it asks for), the view's writes and the pruning of versions nobody can see go
 * to HBase, and Tephra commits. A read outside a transaction starts a short transaction for its
 * visibility (the in-progress and invalid lists: only the transaction service knows them, and a
 * stale copy would let {@code pin()}'s re-check miss an expiry) and aborts it at the end: a
 * read-only transaction has nothing to commit, and an abort never conflicts or fails the read.
 */
public final class HBaseMetadataStore implements MetadataStore {
  private static final Logger LOG = LoggerFactory.getLogger(HBaseMetadataStore.class);

  private final DatasetId dataset;
  private final Connection connection;
  private final TableName metaTable;
  private final TransactionSystemClient txClient;
  private final CommitClock clock;
  private final ReadTransactions readTxs;
  private final RetryPolicy<Object> conflictRetry;
  private final RetryPolicy<Object> deferrableRetry;
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder readCalls = new LongAdder();
  private final LongAdder deletesSent = new LongAdder();
  private volatile CommitObserver observer = CommitObserver.NONE;

  public HBaseMetadataStore(DatasetId dataset, Connection connection, TransactionSystemClient txClient,
      int retries, CommitClock clock) {
    this(dataset, connection, txClient, retries, clock, ReadTransactions.fresh(txClient));
  }

  /** @param readTxs the transactions {@link #readRecent} reads in (shared for a window, or fresh) */
  public HBaseMetadataStore(DatasetId dataset, Connection connection, TransactionSystemClient txClient,
      int retries, CommitClock clock, ReadTransactions readTxs) {
    this.readTxs = readTxs;
    this.dataset = dataset;
    this.connection = connection;
    this.metaTable = dataset.metaTable();
    this.txClient = txClient;
    this.clock = clock;
    this.conflictRetry = retryPolicy(retries, CommitBudget.MAX_BACKOFF);
    this.deferrableRetry = retryPolicy(CommitBudget.deferrableRetries(retries), CommitBudget.DEFERRABLE_MAX_BACKOFF);
  }

  private static RetryPolicy<Object> retryPolicy(int retries, Duration maxBackoff) {
    return RetryPolicy.builder()
        // a transaction that timed out certainly did not commit: like a conflict, retry afresh
        .handle(TransactionConflictException.class, TransactionNotInProgressException.class)
        .withMaxRetries(retries)
        .withBackoff(CommitBudget.FIRST_BACKOFF, maxBackoff)
        .withJitter(CommitBudget.JITTER)
        .build();
  }

  /** Tells {@code observer} of every commit of this store from now on (the dataset's metrics). */
  public HBaseMetadataStore observedBy(CommitObserver observer) {
    this.observer = observer == null ? CommitObserver.NONE : observer;
    return this;
  }

  @Override
  public TransactionAware newTransactionAware() {
    return new TxMetaTable(connection, metaTable, bytesRead, readCalls, deletesSent, false);
  }

  @Override
  public MetadataView view(TransactionAware aware) {
    return new LayoutView(dataset, (TxMetaTable) aware, clock);
  }

  @Override
  public boolean compactDeletes(long threshold) {
    if (deletesSent.sum() < threshold) {
      return false;
    }
    deletesSent.reset();
    try (Admin admin = connection.getAdmin()) {
      // delete markers live in the memstore and in files until a major compaction drops them
      admin.flush(metaTable);
      admin.majorCompact(metaTable);
      return true;
    } catch (IOException e) {
      LOG.warn("compacting the metadata table of {} failed; HBase's periodic major compaction will do it: {}",
          dataset, e.toString());
      return false;
    }
  }

  @Override
  public long bytesRead() {
    return bytesRead.sum();
  }

  @Override
  public long readCalls() {
    return readCalls.sum();
  }

  @Override
  public <T> T read(Function<MetadataView, T> reader) {
    Transaction tx = txClient.startShort();
    try {
      return readIn(tx, reader);
    } finally {
      txClient.abort(tx);
    }
  }

  @Override
  public <T> T readRecent(Function<MetadataView, T> reader) {
    try (ReadTransactions.Lease lease = readTxs.acquire()) {
      return readIn(lease.transaction(), reader);
    }
  }

  private <T> T readIn(Transaction tx, Function<MetadataView, T> reader) {
    TxMetaTable table = new TxMetaTable(connection, metaTable, bytesRead, readCalls, deletesSent, false);
    table.startTx(tx);
    return reader.apply(new LayoutView(dataset, table, clock));
  }

  @Override
  public <T> T update(String operation, Operation<T> op) {
    return update(operation, op, conflictRetry);
  }

  @Override
  public <T> T updateDeferrable(String operation, Operation<T> op) {
    return update(operation, op, deferrableRetry);
  }

  @SuppressWarnings("unchecked")
  private <T> T update(String operation, Operation<T> op, RetryPolicy<Object> budget) {
    return (T) updateTogether(operation, List.of(new Member<>(this, op)), budget).get(0);
  }

  /** One operation on one dataset's metadata, as a member of {@link #updateTogether}. */
  public record Member<T>(HBaseMetadataStore store, Operation<T> operation) {}

  /**
   * Runs each member's operation on its dataset's metadata in one Tephra transaction: all of their
   * writes commit, or none does. A reader whose transaction reads several of these datasets sees
   * them all before or all after. Retried afresh on a conflict ({@code retries} times), each
   * operation validating again, as {@link #update} does. Every member's store must talk to the
   * same transaction service (the first member's client runs the transaction).
   *
   * @return each member's result, in order
   */
  public static List<Object> updateTogether(String operation, List<Member<?>> members, int retries) {
    checkArgument(!members.isEmpty(), "no member to update");
    return updateTogether(operation, members, retryPolicy(retries, CommitBudget.MAX_BACKOFF));
  }

  /** The one commit path: a single dataset's update is a transaction of one member. */
  private static List<Object> updateTogether(String operation, List<Member<?>> members, RetryPolicy<Object> budget) {
    DatasetId first = members.get(0).store().dataset;
    String what = members.size() == 1 ? operation + " on " + first : operation;
    long started = System.nanoTime();
    int[] attempts = {0};
    boolean committed = false;
    try {
      List<Object> results = Failsafe.with(budget).get(() -> {
        attempts[0]++;
        return attemptTogether(operation, members);
      });
      committed = true;
      return results;
    } catch (AccessDeniedException e) {
      // every metadata change needs the writer role, whichever of its reads or writes was refused first
      throw e.within(operation, DatasetRole.WRITER);
    } catch (FailsafeException e) {
      if (e.getCause() instanceof TransactionConflictException) {
        throw new CommitConflictException(first, operation, e.getCause());
      }
      if (e.getCause() instanceof TransactionNotInProgressException) {
        throw new StorageException(what + " timed out on every attempt and did not commit", e.getCause());
      }
      throw StorageErrors.translate(first, operation, e.getCause());
    } finally {
      // whatever the outcome, reads of this process that share a transaction must not miss it
      ReadTransactions.committed();
      long nanos = System.nanoTime() - started;
      for (Member<?> m : members) {
        m.store().observer.finished(nanos, attempts[0], committed);
      }
    }
  }

  private static List<Object> attemptTogether(String operation, List<Member<?>> members)
      throws TransactionConflictException, TransactionNotInProgressException {
    HBaseMetadataStore first = members.get(0).store();
    String what = members.size() == 1 ? operation + " on " + first.dataset : operation;
    TransactionSystemClient txClient = first.txClient;
    Transaction tx = txClient.startShort();
    List<TxMetaTable> tables = new ArrayList<>();
    boolean done = false;
    try {
      List<Object> results = new ArrayList<>();
      List<LayoutView> views = new ArrayList<>();
      java.time.Instant at = java.time.Instant.EPOCH;
      for (Member<?> m : members) {
        HBaseMetadataStore store = m.store();
        TxMetaTable table = new TxMetaTable(store.connection, store.metaTable, store.bytesRead, store.readCalls,
            store.deletesSent, true);
        table.startTx(tx);
        tables.add(table);
        LayoutView view = new LayoutView(store.dataset, table, store.clock);
        views.add(view);
        at = at.isAfter(view.commitTime()) ? at : view.commitTime();
      }
      // one commit time in every member (each is never before its own last one)
      for (int i = 0; i < members.size(); i++) {
        views.get(i).commitNotBefore(at);
        results.add(members.get(i).operation().apply(views.get(i)));
      }
      List<byte[]> changes = new ArrayList<>();
      for (int i = 0; i < views.size(); i++) {
        if (views.get(i).changed()) {
          views.get(i).flush();
          changes.addAll(tables.get(i).getTxChanges());
        }
      }
      if (changes.isEmpty()) {
        txClient.abort(tx);
        done = true;
        return results;
      }
      txClient.canCommitOrThrow(tx, changes);
      for (TxMetaTable table : tables) {
        table.commitTx();
      }
      first.commitOrUnknown(operation, tx);
      for (TxMetaTable table : tables) {
        table.postTxCommit();
      }
      done = true;
      return results;
    } catch (TransactionConflictException e) {
      LOG.debug("{} conflicted, retrying from a fresh base", what);
      for (Member<?> m : members) {
        m.store().observer.conflicted();
      }
      throw e;
    } catch (TransactionNotInProgressException e) {
      LOG.info("{} timed out before it committed (nothing committed), retrying: {}", what, e.getMessage());
      throw e;
    } catch (TransactionFailureException e) {
      throw new StorageException(what, e);
    } catch (CommitStateUnknownException e) {
      done = true; // never roll back a commit whose outcome is unknown
      throw e;
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw StorageErrors.translate(first.dataset, operation, e);
    } finally {
      if (!done) {
        rollbackAll(first, tables, tx);
      }
    }
  }

  private static void rollbackAll(HBaseMetadataStore first, List<TxMetaTable> tables, Transaction tx) {
    boolean clean = true;
    for (TxMetaTable table : tables) {
      try {
        clean &= table.rollbackTx();
      } catch (Exception e) {
        LOG.warn("rolling back the metadata of a transaction over several datasets failed; invalidating"
            + " transaction {}", tx.getTransactionId(), e);
        clean = false;
      }
    }
    if (clean) {
      first.txClient.abort(tx);
    } else {
      first.txClient.invalidate(tx.getTransactionId());
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

  /**
   * Rewrites format 1 metadata into format 2 (see {@link MetadataUpgrade}) in one transaction.
   * Returns the number of snapshot records kept.
   */
  public int upgradeFromFormat1() {
    return update("upgrade metadata format", view -> MetadataUpgrade.apply(dataset, (LayoutView) view));
  }

  /**
   * The upgrade from format 2 to 3 changes no row (new snapshots get key numbers from then on):
   * this only commits its UPGRADED event, like the upgrade from format 1 does.
   */
  public void recordUpgrade() {
    update("record the upgrade of", view -> {
      ((LayoutView) view).emitDatasetEvent(io.snapds.dataset.DatasetEvent.Type.UPGRADED);
      return null;
    });
  }

  @Override
  public int removeVersionsOf(Collection<Long> failedTransactions) {
    if (failedTransactions.isEmpty()) {
      return 0;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long t : failedTransactions) {
      min = Math.min(min, t);
      max = Math.max(max, t);
    }
    List<Delete> deletes = new ArrayList<>();
    try (Table table = connection.getTable(metaTable)) {
      Scan scan = new Scan().addFamily(MetadataLayout.FAMILY).readAllVersions().setTimeRange(min, max + 1)
          .setFilter(new TimestampsFilter(new ArrayList<>(failedTransactions)));
      try (ResultScanner scanner = table.getScanner(scan)) {
        for (Result r : scanner) {
          Delete d = new Delete(r.getRow());
          for (Cell c : r.rawCells()) {
            d.addColumn(MetadataLayout.FAMILY, CellUtil.cloneQualifier(c), c.getTimestamp());
          }
          deletes.add(d);
        }
      }
      int cells = deletes.stream().mapToInt(Delete::size).sum();
      table.delete(deletes);
      deletesSent.add(cells);
      return cells;
    } catch (IOException | java.io.UncheckedIOException e) {
      throw StorageErrors.translate(dataset, "remove the metadata of failed transactions", e);
    }
  }
}
