package io.snapds.dataset.mapreduce;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.StorageErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The rows and bytes each task of a {@link SnapshotOutputFormat} job wrote, kept in the dataset's
 * lock table until the job commits, so that the committer publishes exact counts without scanning
 * the output (issue #12 item 5). Two kinds of row, under {@code 'T' + snapshot id (8 bytes)}:
 * <ul>
 *   <li>{@code 'a' + attempt id}: what one attempt's record writer wrote, recorded when it closes
 *       (a failed attempt's too: it is never committed);
 *   <li>{@code 't' + task id}: the counts of the task's committed attempt, moved there from its
 *       attempt row by {@code commitTask}. Keyed by the task, not the attempt, so a task that
 *       commits again (re-run after its output was lost) overwrites rather than adds.
 * </ul>
 * MapReduce lets one attempt per task commit (the application master's commit permission), so a
 * speculative or failed attempt is never counted. The job sums the task rows (one scan of as many
 * rows as attempts) and deletes them all. Shared with the benchmarks, not an API.
 */
@InterfaceAudience.Private
public final class TaskCommitRecords {
  /** The lock table's family (one version). */
  private static final byte[] FAMILY = Bytes.toBytes("l");
  private static final byte[] ROWS = Bytes.toBytes("rows");
  private static final byte[] BYTES = Bytes.toBytes("bytes");

  /** Rows and bytes, counted as {@link io.snapds.dataset.SnapshotRowWriter} counts them. */
  public record Counts(long rows, long bytes, int tasks) {}

  private final Connection connection;
  private final DatasetId dataset;
  private final SnapshotId snapshot;

  public TaskCommitRecords(Connection connection, DatasetId dataset, SnapshotId snapshot) {
    this.connection = connection;
    this.dataset = dataset;
    this.snapshot = snapshot;
  }

  /** What one attempt wrote; its task counts it only if this attempt commits. */
  void recordAttempt(TaskAttemptID attempt, long rows, long bytes) {
    put(new Put(attemptRow(attempt)).addColumn(FAMILY, ROWS, Bytes.toBytes(rows))
        .addColumn(FAMILY, BYTES, Bytes.toBytes(bytes)), "record the counts of " + attempt);
  }

  /**
   * Makes {@code attempt}'s counts its task's, replacing those of an attempt of the same task
   * that committed before. Returns false when the attempt recorded nothing (it opened no writer,
   * as the map tasks of a job with reducers).
   */
  boolean commit(TaskAttemptID attempt) {
    try (Table table = connection.getTable(dataset.lockTable())) {
      Result r = table.get(new Get(attemptRow(attempt)).addFamily(FAMILY));
      if (r.isEmpty()) {
        return false;
      }
      table.put(new Put(taskRow(attempt)).addColumn(FAMILY, ROWS, r.getValue(FAMILY, ROWS))
          .addColumn(FAMILY, BYTES, r.getValue(FAMILY, BYTES)));
      table.delete(new Delete(attemptRow(attempt)));
      return true;
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.lockTable(), "commit the counts of " + attempt, e);
    }
  }

  /** Forgets what an attempt that will not commit recorded. */
  void discard(TaskAttemptID attempt) {
    try (Table table = connection.getTable(dataset.lockTable())) {
      table.delete(new Delete(attemptRow(attempt)));
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.lockTable(), "discard the counts of " + attempt, e);
    }
  }

  /** The sum over the committed tasks. */
  public Counts sum() {
    long rows = 0;
    long bytes = 0;
    int tasks = 0;
    for (Result r : scan(prefix((byte) 't'))) {
      rows += Bytes.toLong(r.getValue(FAMILY, ROWS));
      bytes += Bytes.toLong(r.getValue(FAMILY, BYTES));
      tasks++;
    }
    return new Counts(rows, bytes, tasks);
  }

  /** Deletes every record of the snapshot (task and attempt rows); returns how many. */
  int clear() {
    List<Delete> deletes = new ArrayList<>();
    for (Result r : scan(Bytes.add(new byte[] {'T'}, snapshot.toBytes()))) {
      deletes.add(new Delete(r.getRow()));
    }
    try (Table table = connection.getTable(dataset.lockTable())) {
      table.delete(deletes);
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.lockTable(), "delete the task counts of snapshot " + snapshot, e);
    }
    return deletes.size();
  }

  private List<Result> scan(byte[] prefix) {
    List<Result> out = new ArrayList<>();
    try (Table table = connection.getTable(dataset.lockTable());
        ResultScanner rs = table.getScanner(new Scan().setRowPrefixFilter(prefix).addFamily(FAMILY))) {
      rs.forEach(out::add);
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.lockTable(), "read the task counts of snapshot " + snapshot, e);
    }
    return out;
  }

  private void put(Put put, String what) {
    try (Table table = connection.getTable(dataset.lockTable())) {
      table.put(put);
    } catch (IOException | UncheckedIOException e) {
      throw StorageErrors.translate(dataset.lockTable(), what, e);
    }
  }

  private byte[] prefix(byte kind) {
    return Bytes.add(new byte[] {'T'}, snapshot.toBytes(), new byte[] {kind});
  }

  private byte[] attemptRow(TaskAttemptID attempt) {
    return Bytes.add(prefix((byte) 'a'), Bytes.toBytes(attempt.toString()));
  }

  private byte[] taskRow(TaskAttemptID attempt) {
    return Bytes.add(prefix((byte) 't'), Bytes.toBytes(attempt.getTaskID().toString()));
  }
}
