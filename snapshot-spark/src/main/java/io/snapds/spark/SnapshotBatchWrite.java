package io.snapds.spark;

import io.snapds.dataset.NewSnapshot;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.tx.JobDatasets;
import java.io.IOException;
import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Spark write as one new snapshot, on the core's distributed write protocol (as MapReduce's
 * SnapshotOutputFormat): the driver begins the snapshot when the write's tasks are about to run
 * ({@link #createBatchWriterFactory}), and holds its writer, which keeps the writer lock's lease
 * alive, until the job ends; each task writes through a {@code SnapshotTaskWriter} on the
 * snapshot's handle; {@link #commit} publishes (or, with option {@code stage}, stages) with the
 * counts the core takes (the tasks' attempt records summed, or the counting scan), so the
 * published counts are the rows a reader gets; {@link #abort} marks the
 * snapshot ABORTED and the current snapshot stays. With option {@code run.id}, a run id that was
 * published before begins nothing: the tasks discard their rows and nothing is published again.
 */
final class SnapshotBatchWrite implements BatchWrite {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotBatchWrite.class);

  private final SnapshotTable table;
  private final LogicalWriteInfo info;
  private JobDatasets datasets;
  private SnapshotWriter writer;
  private Optional<SnapshotInfo> alreadyPublished = Optional.empty();
  private boolean stage;

  SnapshotBatchWrite(SnapshotTable table, LogicalWriteInfo info) {
    this.table = table;
    this.info = info;
  }

  @Override
  public synchronized DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo physical) {
    SnapdsOptions options = table.options().with(info.options().asCaseSensitiveMap());
    this.stage = options.stage(); // a bad value fails before anything is begun
    String runId = options.runId();
    long buffer = options.writeBufferBytes();
    try {
      datasets = JobDatasets.open(table.conf());
      SnapshotDataset dataset = datasets.open(table.id());
      Schema schema = dataset.schema().orElseThrow(() -> new IllegalArgumentException("dataset " + table.id()
          + " has no schema: Spark writes typed datasets"));
      if (!schema.equals(table.datasetSchema())) {
        throw new IllegalStateException("the schema of " + table.id() + " changed since the table was loaded (now ["
            + schema + "], was [" + table.datasetSchema() + "]): load it again");
      }
      SparkContext sc = SparkContext.getOrCreate();
      NewSnapshot begin = dataset.newSnapshot().owner("spark:" + sc.appName()).writeBufferBytes(buffer);
      if (runId != null) {
        begin.runId(runId);
      }
      writer = begin.begin();
      if (writer.alreadyPublished().isPresent()) {
        alreadyPublished = writer.alreadyPublished();
        LOG.info("run '{}' wrote snapshot {} of {} before (it is {}): this write {} nothing", runId, writer.snapshotId(),
            table.id(), alreadyPublished.get().state(), stage ? "stages" : "publishes");
        return new SnapshotDataWriterFactory(new SerializableConf(table.conf()), table.id().toString(), null,
            schema.toStringWithIds(), table.family(), info.schema().fieldNames(), buffer);
      }
      LOG.info("began snapshot {} of {} for Spark application {}", writer.snapshotId(), table.id(), sc.applicationId());
      return new SnapshotDataWriterFactory(new SerializableConf(table.conf()), table.id().toString(),
          writer.handle().orElseThrow().encode(), schema.toStringWithIds(), table.family(), info.schema().fieldNames(),
          buffer);
    } catch (IOException e) {
      release();
      throw new java.io.UncheckedIOException("beginning a snapshot of " + table.id() + " failed", e);
    } catch (RuntimeException e) {
      if (writer != null) {
        writer.close(); // aborts
      }
      release();
      throw e;
    }
  }

  /**
   * Publishes (or stages). When this throws, Spark calls {@link #abort} next, and the writer is
   * still here for it: it knows whether aborting is safe (never after a commit whose outcome is
   * unknown).
   */
  @Override
  public synchronized void commit(WriterCommitMessage[] messages) {
    if (writer == null) {
      return;
    }
    if (alreadyPublished.isPresent()) {
      end();
      return;
    }
    long sent = 0;
    for (WriterCommitMessage m : messages) {
      sent += m instanceof SnapshotDataWriter.Sent s ? s.rows() : 0;
    }
    SparkContext sc = SparkContext.getOrCreate();
    SnapshotWriter counted = writer.countStoredRows().summary("spark.app.id", sc.applicationId());
    SnapshotInfo done = stage ? counted.stage() : counted.commit();
    LOG.info("{} snapshot {} of {} with {} rows (the tasks sent {})", done.state(), done.id(), table.id(),
        done.rowCount(), sent);
    end();
  }

  @Override
  public synchronized void abort(WriterCommitMessage[] messages) {
    if (writer == null) {
      return;
    }
    try {
      if (alreadyPublished.isEmpty()) {
        writer.abort();
        LOG.info("the Spark write failed: aborted snapshot {} of {}", writer.snapshotId(), table.id());
      }
    } catch (SnapshotNotAvailableException e) {
      LOG.info("snapshot {} of {} was not building any more: {}", writer.snapshotId(), table.id(), e.getMessage());
    } finally {
      end();
    }
  }

  /** Closes the writer (after a commit or an abort it changes nothing) and the connection. */
  private void end() {
    try {
      writer.close();
    } finally {
      writer = null;
      release();
    }
  }

  private void release() {
    if (datasets != null) {
      try {
        datasets.close();
      } catch (IOException e) {
        LOG.warn("closing the connection of the write to {} failed: {}", table.id(), e.toString());
      }
      datasets = null;
    }
  }
}
