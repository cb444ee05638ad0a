package io.snapds.dataset.mapreduce;

import io.snapds.dataset.read.SplitReader;
import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The core {@link SplitReader} of one {@link SnapshotSplit} with its own HBase connection, made
 * from the job configuration, and the Writables both API adapters hand to mappers. The
 * configured columns and caching ({@link SnapshotInputFormatImpl#COLUMNS},
 * {@link SnapshotInputFormatImpl#CACHING}) shape the scan.
 */
@InterfaceAudience.Private
public final class SnapshotSplitReader implements Closeable {
  private static final String WHEN_PIN_LAPSED = "the job's reader pin lapsed (the process that computed the splits"
      + " stopped renewing it); keep that process alive while the job runs, or raise " + SnapshotInputFormatImpl.PIN_TTL;

  private final Connection connection;
  private final SplitReader reader;
  private final ImmutableBytesWritable key = new ImmutableBytesWritable();
  private final SnapshotRowWritable value = new SnapshotRowWritable();

  private SnapshotSplitReader(Connection connection, SplitReader reader) {
    this.connection = connection;
    this.reader = reader;
  }

  public static SnapshotSplitReader open(SnapshotSplit split, Configuration conf) throws IOException {
    Connection connection = ConnectionFactory.createConnection(conf);
    try {
      return new SnapshotSplitReader(connection, SplitReader.open(connection, split.delegate(),
          SnapshotInputFormatImpl.rowScan(conf), false, WHEN_PIN_LAPSED));
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** Moves to the next row; false at the end of the split. */
  public boolean next() throws IOException {
    if (!reader.next()) {
      return false;
    }
    key.set(reader.key());
    value.set(reader.row());
    return true;
  }

  /** The current row's user key; the same object on every call. */
  public ImmutableBytesWritable key() {
    return key;
  }

  /** The current row; the same object on every call. */
  public SnapshotRowWritable value() {
    return value;
  }

  /** 0 while reading, 1 at the end (a snapshot range gives no cheap position estimate). */
  public float progress() {
    return reader.isDone() ? 1f : 0f;
  }

  @Override
  public void close() throws IOException {
    try {
      reader.close();
    } finally {
      connection.close();
    }
  }
}
