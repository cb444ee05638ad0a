package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.lock.LockTable;
import io.snapds.dataset.store.RowKeys;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Writes rows under one snapshot's prefix through a {@link BufferedMutator} whose buffer is
 * bounded. It has no say in the snapshot's life: a {@link SnapshotWriter} uses one, and so does
 * each MapReduce task writing into a snapshot its job began.
 *
 * <p>Consecutive cells of one row travel as one {@code Put} (a Put per cell cost the writer
 * two thirds of its speed: see docs/benchmarks.md), up to a quarter of the write buffer: a wider
 * row goes as several Puts of the same row key, so the memory a row holds stays bounded by the
 * buffer whatever its width. Splitting a row changes nothing a reader sees: a snapshot's rows
 * are read only after it is published.
 *
 * <p>Cells get timestamps from a counter (1, 2, 3, ...), not the clock: a delete followed by a
 * put of the same row in one flush keeps the put, and cleanup's deletes (at the server's time)
 * always cover every cell. Data cells need no wall-clock time; the metadata records the times.
 */
@InterfaceAudience.Private
public final class SnapshotRowWriter implements AutoCloseable {
  private final DatasetId dataset;
  private final SnapshotKeys keys;
  private final Map<String, byte[]> families;
  private final long maxValueSize;
  private final BufferedMutator mutator;
  /** A row's cells are sent once they add up to this many bytes. */
  private final long maxPutBytes;
  private long lastTimestamp;
  private byte[] lastKey;
  /** The cells of the current row, sent as one Put when the key changes (or on flush). */
  private Put pending;
  /** The bytes of {@link #pending}'s cells. */
  private long pendingBytes;
  private long rows;
  private long bytes;
  /** The key of the row before the current one, to see keys come in ascending order. */
  private byte[] previousKey;
  /** The family and qualifier of the current row's last cell, to see each cell come once. */
  private byte[] lastFamily;
  private byte[] lastQualifier;
  /** Whether {@link #rows} and {@link #bytes} are what the snapshot stores (see {@link #countsExact()}). */
  private boolean exact = true;
  /** The first key written: with {@link #exact} counts, the lowest. */
  private byte[] firstKey;
  /** Where this writer records itself as an attempt (a writer of a snapshot begun elsewhere); null for the snapshot's own writer. */
  private LockTable attempts;
  /** How long its records live: longer than a build may last. */
  private java.time.Duration recordTtl;
  private final String attemptId = java.util.UUID.randomUUID().toString();
  private boolean recorded;
  private boolean closed;

  SnapshotRowWriter(Connection connection, DatasetId dataset, SnapshotKeys snapshot, Set<String> families,
      long writeBufferBytes) {
    this(dataset, mutator(connection, dataset, writeBufferBytes), snapshot, families,
        connection.getConfiguration().getLong("hbase.client.keyvalue.maxsize", 10485760L), writeBufferBytes);
  }

  /**
   * A writer into {@code mutator} (the JMH benchmark of row assembly gives one that discards).
   *
   * @param writeBufferBytes the mutator's write buffer; one Put carries at most a quarter of it
   */
  SnapshotRowWriter(DatasetId dataset, BufferedMutator mutator, SnapshotKeys snapshot, Set<String> families,
      long maxValueSize, long writeBufferBytes) {
    checkArgument(writeBufferBytes > 0, "write buffer must be positive, got %s bytes", writeBufferBytes);
    this.dataset = dataset;
    this.keys = snapshot;
    this.families = new LinkedHashMap<>();
    families.forEach(f -> this.families.put(f, Bytes.toBytes(f)));
    this.maxValueSize = maxValueSize;
    this.mutator = mutator;
    this.maxPutBytes = Math.max(1, writeBufferBytes / 4);
  }

  /**
   * Makes this writer an attempt of a distributed write: it records itself in {@code locks}
   * before it sends ({@link #recordAttempt()}), and what it stored once all it sent has landed
   * ({@link #close()}), so that the publish can sum the attempts' counts instead of counting the
   * stored rows (docs/design.md "One write protocol"). The records live {@code recordTtl}.
   */
  SnapshotRowWriter asAttempt(LockTable locks, java.time.Duration recordTtl) {
    this.attempts = locks;
    this.recordTtl = recordTtl;
    return this;
  }

  /**
   * Records this writer as an attempt writing into the snapshot, once, before anything is sent: a
   * task writer calls it before its first check that the snapshot is still building. Nothing for
   * the snapshot's own writer.
   */
  public void recordAttempt() {
    if (attempts != null && !recorded) {
      attempts.recordAttempt(keys.id(), attemptId, recordTtl);
      recorded = true;
    }
  }

  /**
   * Removes this attempt's record, for an attempt that found its snapshot no longer building: the
   * publish (or abort) that ended the build read the records already, and this one would otherwise
   * stay until cleanup deletes the snapshot, or for good if it came after that.
   */
  public void forgetAttempt() {
    if (recorded) {
      attempts.forgetAttempt(keys.id(), attemptId);
      recorded = false;
    }
  }

  private static BufferedMutator mutator(Connection connection, DatasetId dataset, long writeBufferBytes) {
    try {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(dataset.dataTable()).writeBufferSize(writeBufferBytes)
              // no timer flush: its failures are only logged, and rows counted would be lost unseen;
              // every failure must reach mutate, flush or close (countsExact, the attempt records)
              .setWriteBufferPeriodicFlushTimeoutMs(0));
    } catch (IOException e) {
      throw StorageErrors.translate(dataset, "open a writer on " + dataset.dataTable(), e);
    }
  }

  public SnapshotId snapshotId() {
    return keys.id();
  }

  /** Where the rows go: the snapshot's key prefix. */
  public SnapshotKeys keys() {
    return keys;
  }

  /** Rows written so far (consecutive cells of the same key count once). */
  public long rowCount() {
    return rows;
  }

  /** Key and value bytes written so far. */
  public long byteCount() {
    return bytes;
  }

  /**
   * Whether {@link #rowCount()} and {@link #byteCount()} are the rows and bytes this writer left
   * under the snapshot: true as long as rows came in ascending key order, each cell of a row
   * once, in ascending family and qualifier order, and nothing was deleted. A key written twice,
   * a cell overwritten or a delete makes them counts of calls, not of stored rows; the snapshot's
   * writer then counts the stored rows instead ({@link SnapshotWriter#commit()}). Costs one
   * comparison of keys per row and one of qualifiers per cell.
   */
  public boolean countsExact() {
    return exact;
  }

  public void put(byte[] key, String family, byte[] qualifier, byte[] value) {
    checkOpen();
    boolean sameRow = lastKey != null && key != null && Arrays.equals(lastKey, key);
    if (!sameRow) {
      RowKeys.checkUserKey(key);
    }
    // the messages are built only on failure: this runs once per cell (JMH RowAssemblyBenchmark)
    byte[] familyBytes = family == null ? null : families.get(family);
    checkArgument(familyBytes != null, "unknown column family '%s': the dataset has %s", family, families.keySet());
    checkArgument(qualifier != null, "qualifier must not be null (family '%s')", family);
    if (value == null) {
      throw new IllegalArgumentException(String.format("value of %s:%s must not be null (use delete)", family,
          Bytes.toStringBinary(qualifier)));
    }
    long cellSize = keys.prefixLength() + key.length + familyBytes.length + qualifier.length + value.length;
    if (cellSize > maxValueSize) {
      throw new IllegalArgumentException(String.format(
          "cell %s:%s of row %s is %s bytes, over the limit of %s bytes (hbase.client.keyvalue.maxsize)",
          family, Bytes.toStringBinary(qualifier), Bytes.toStringBinary(key, 0, Math.min(32, key.length)),
          cellSize, maxValueSize));
    }
    if (!sameRow) {
      if (exact && previousKey != null && Bytes.compareTo(previousKey, key) >= 0) {
        exact = false; // a key written again, or out of order: it may repeat one written before
      }
      sendPending();
      pending = new Put(keys.rowKey(key));
      rows++;
      lastKey = key.clone();
      previousKey = lastKey;
      if (firstKey == null) {
        firstKey = lastKey;
      }
      lastFamily = null;
      bytes += key.length;
    } else if (pending == null || pendingBytes + cellSize > maxPutBytes) {
      // the row's cells so far went already (a flush between two of its cells) or go now (a wide
      // row): the rest in another Put of the same row key
      sendPending();
      pending = new Put(keys.rowKey(key));
    }
    if (exact && lastFamily != null) {
      int order = Bytes.compareTo(lastFamily, familyBytes);
      if (order > 0 || order == 0 && Bytes.compareTo(lastQualifier, qualifier) >= 0) {
        exact = false; // a cell written again, or out of order: it may overwrite one written before
      }
    }
    lastFamily = familyBytes;
    lastQualifier = qualifier;
    pending.addColumn(familyBytes, qualifier, nextTimestamp(), value);
    pendingBytes += cellSize;
    bytes += qualifier.length + value.length;
  }

  private void sendPending() {
    if (pending != null) {
      recordAttempt();
      Put p = pending;
      pending = null;
      pendingBytes = 0;
      mutate(p);
    }
  }

  public void put(SnapshotRow row) {
    byte[] key = row.key();
    row.families().forEach((f, cols) -> {
      String family = Bytes.toString(f);
      cols.forEach((q, v) -> put(key, family, q, v));
    });
  }

  public void delete(byte[] key) {
    checkOpen();
    exact = false;
    sendPending();
    recordAttempt();
    mutate(new Delete(keys.rowKey(key), nextTimestamp()));
    lastKey = null;
  }

  public void flush() {
    checkOpen();
    sendPending();
    try {
      mutator.flush();
    } catch (IOException | RuntimeException e) {
      throw sendFailed(e);
    }
  }

  /**
   * A send failed: rows counted may not have landed, so the counts are no longer what the snapshot
   * stores. Returns what to throw.
   */
  private RuntimeException sendFailed(Exception e) {
    exact = false;
    return e instanceof IOException io ? StorageErrors.translate(dataset.dataTable(), "write snapshot " + keys.id(), io)
        : (RuntimeException) e;
  }

  /**
   * Flushes and closes; idempotent. An attempt that sent rows records what it stored once the last
   * of them has landed, if its counts are exact; one whose sends failed records nothing more, and
   * the publish then counts the stored rows.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      sendPending();
    } finally {
      closed = true;
    }
    try {
      mutator.close();
    } catch (IOException | RuntimeException e) {
      throw sendFailed(e);
    }
    if (recorded && exact && rows > 0) {
      attempts.attemptStored(keys.id(), attemptId, rows, bytes, firstKey, previousKey, recordTtl);
    }
  }

  private void mutate(org.apache.hadoop.hbase.client.Mutation m) {
    try {
      mutator.mutate(m);
    } catch (IOException | RuntimeException e) {
      throw sendFailed(e);
    }
  }

  private long nextTimestamp() {
    return ++lastTimestamp;
  }

  private void checkOpen() {
    checkState(!closed, "the writer of snapshot %s is closed", keys.id());
  }
}
