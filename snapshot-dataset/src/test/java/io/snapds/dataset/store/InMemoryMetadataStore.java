package io.snapds.dataset.store;

import io.snapds.dataset.CommitConflictException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;
import org.apache.tephra.TxConstants;

/**
 * A {@link MetadataStore} in memory, for unit tests of the operations' rules: the same
 * {@link LayoutView} (layout, indexes, horizon) over a sorted map instead of HBase. Updates run
 * one at a time, so they never conflict unless a test makes them lose races ({@link #loseRaces}),
 * which they then retry within the same budgets as the HBase store ({@link CommitBudget}, without
 * the backoff); tests register readers ({@link #startReader}) and failed transactions
 * ({@link #invalidate}) to shape the transactions the rules see.
 */
public final class InMemoryMetadataStore implements MetadataStore {
  private static final byte[] TOMBSTONE = new byte[0];

  private final DatasetId dataset;
  private final Clock clock;
  private final int retries;
  private final TreeMap<byte[], TreeMap<byte[], byte[]>> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
  private final TreeSet<Long> inProgress = new TreeSet<>();
  private final TreeSet<Long> invalid = new TreeSet<>();
  private final AtomicLong readCalls = new AtomicLong();
  private long lastId;
  private long cellsWritten;
  private int racesToLose;
  private long attempts;

  /** A store whose operations get the default {@code commit.retries}. */
  public InMemoryMetadataStore(DatasetId dataset, Clock clock) {
    this(dataset, clock, DatasetProperties.defaults().commitRetries());
  }

  /** @param retries the dataset's {@code commit.retries} */
  public InMemoryMetadataStore(DatasetId dataset, Clock clock, int retries) {
    this.dataset = dataset;
    this.clock = clock;
    this.retries = retries;
  }

  /**
   * The next {@code n} attempts that change anything lose their race, as if another process
   * committed to this dataset between their read and their commit: nothing they wrote is kept.
   */
  public synchronized void loseRaces(int n) {
    racesToLose = n;
  }

  /** Races still to lose (see {@link #loseRaces}). */
  public synchronized int racesLeftToLose() {
    return racesToLose;
  }

  /** Attempts of all updates so far, lost ones included. */
  public synchronized long attempts() {
    return attempts;
  }

  /** Starts a transaction that stays in progress (a reader) until {@link #endReader}. */
  public synchronized long startReader() {
    long id = nextId();
    inProgress.add(id);
    return id;
  }

  public synchronized void endReader(long id) {
    inProgress.remove(id);
  }

  /** Moves a transaction to the invalid list, as a timeout would. */
  public synchronized void invalidate(long id) {
    inProgress.remove(id);
    invalid.add(id);
  }

  /** A fresh transaction id, as Tephra's write pointers: the clock's millis times MAX_TX_PER_MS. */
  public synchronized long nextId() {
    lastId = Math.max(lastId + 1, clock.millis() * TxConstants.MAX_TX_PER_MS);
    return lastId;
  }

  /** Rows of one kind (first byte) that hold a value that is not a delete, as a raw scan finds them. */
  public synchronized int liveRows(byte kind) {
    int n = 0;
    for (Map.Entry<byte[], TreeMap<byte[], byte[]>> r : rows.entrySet()) {
      if (r.getKey().length > 0 && r.getKey()[0] == kind
          && r.getValue().values().stream().anyMatch(v -> v != TOMBSTONE && v.length > 0)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Every row, column and value held, one line each in key order, bytes printed as HBase's shell
   * prints them: for the tests that pin the format.
   */
  public synchronized String dump() {
    StringBuilder out = new StringBuilder();
    rows.forEach((row, cols) -> cols.forEach((q, v) -> out.append(Bytes.toStringBinary(row)).append(' ')
        .append(Bytes.toStringBinary(q)).append(" = ").append(Bytes.toStringBinary(v)).append('\n')));
    return out.toString();
  }

  /** Rows held (all kinds, including the pointer row). */
  public synchronized int rowCount() {
    return rows.size();
  }

  /** Cells written by all committed updates so far. */
  public synchronized long cellsWritten() {
    return cellsWritten;
  }

  private Transaction newTransaction() {
    long id = nextId();
    long[] progress = inProgress.stream().mapToLong(Long::longValue).toArray();
    long[] invalids = invalid.stream().mapToLong(Long::longValue).toArray();
    return new Transaction(id - 1, id, invalids, progress,
        progress.length == 0 ? Transaction.NO_TX_IN_PROGRESS : progress[0]);
  }

  @Override
  public synchronized <T> T update(String operation, Operation<T> op) {
    return withRetries(operation, op, retries);
  }

  @Override
  public synchronized <T> T updateDeferrable(String operation, Operation<T> op) {
    return withRetries(operation, op, CommitBudget.deferrableRetries(retries));
  }

  private <T> T withRetries(String operation, Operation<T> op, int budget) {
    for (int retry = 0; ; retry++) {
      attempts++;
      Rows view = new Rows(newTransaction());
      LayoutView layout = new LayoutView(dataset, view, CommitClock.of(clock));
      T result = op.apply(layout);
      if (!layout.changed()) {
        return result;
      }
      layout.flush();
      if (racesToLose > 0) {
        racesToLose--;
        if (retry < budget) {
          continue; // a fresh view, validation again: as the HBase store after a conflict
        }
        throw new CommitConflictException(dataset, operation, null);
      }
      view.apply();
      return result;
    }
  }

  @Override
  public synchronized <T> T read(Function<MetadataView, T> reader) {
    return reader.apply(new LayoutView(dataset, new Rows(newTransaction()), CommitClock.of(clock)));
  }

  @Override
  public TransactionAware newTransactionAware() {
    throw new UnsupportedOperationException("the in-memory store has no Tephra callbacks; use read()");
  }

  @Override
  public MetadataView view(TransactionAware aware) {
    throw new UnsupportedOperationException("the in-memory store has no Tephra callbacks; use read()");
  }

  @Override
  public int removeVersionsOf(Collection<Long> failedTransactions) {
    return 0; // failed updates never reach the map
  }

  @Override
  public boolean compactDeletes(long threshold) {
    return false; // nothing is kept to compact
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  public long readCalls() {
    return readCalls.get();
  }

  /** One transaction's access: reads the committed map, buffers writes until {@link #apply}. */
  private final class Rows implements MetaRows {
    private final Transaction tx;
    private final List<byte[][]> puts = new ArrayList<>();
    private final List<byte[]> purges = new ArrayList<>();

    Rows(Transaction tx) {
      this.tx = tx;
    }

    @Override
    public Transaction transaction() {
      return tx;
    }

    @Override
    public NavigableMap<byte[], byte[]> get(byte[] row) {
      readCalls.incrementAndGet();
      return copy(row);
    }

    private NavigableMap<byte[], byte[]> copy(byte[] row) {
      TreeMap<byte[], byte[]> cols = rows.get(row);
      return cols == null ? new TreeMap<>(Bytes.BYTES_COMPARATOR) : new TreeMap<>(cols);
    }

    @Override
    public List<NavigableMap<byte[], byte[]>> getAll(List<byte[]> keys) {
      List<NavigableMap<byte[], byte[]>> out = new ArrayList<>(keys.size());
      readCalls.incrementAndGet();
      keys.forEach(k -> out.add(copy(k)));
      return out;
    }

    @Override
    public List<Row> scan(byte[] start, byte[] stop, boolean reverse, int limit) {
      readCalls.incrementAndGet();
      NavigableMap<byte[], TreeMap<byte[], byte[]>> range = rows.subMap(start, true, stop, false);
      List<Row> out = new ArrayList<>();
      for (Map.Entry<byte[], TreeMap<byte[], byte[]>> e : (reverse ? range.descendingMap() : range).entrySet()) {
        if (out.size() >= limit) {
          break;
        }
        out.add(new Row(e.getKey(), new TreeMap<>(e.getValue())));
      }
      return out;
    }

    @Override
    public void put(byte[] row, byte[] qualifier, byte[] value) {
      puts.add(new byte[][] {row, qualifier, value});
    }

    @Override
    public void delete(byte[] row, byte[] qualifier) {
      put(row, qualifier, TOMBSTONE);
    }

    @Override
    public void purge(byte[] row, long upTo) {
      purges.add(row);
    }

    @Override
    public long pruneBound() {
      return tx.getWritePointer() - 1; // no versions here: a committed delete is seen by all
    }

    void apply() {
      purges.forEach(rows::remove);
      for (byte[][] p : puts) {
        TreeMap<byte[], byte[]> cols = rows.computeIfAbsent(p[0], k -> new TreeMap<>(Bytes.BYTES_COMPARATOR));
        if (p[2].length == 0) {
          cols.remove(p[1]);
          if (cols.isEmpty()) {
            rows.remove(p[0]);
          }
        } else {
          cols.put(p[1], p[2]);
        }
        cellsWritten++;
      }
    }
  }
}
