package io.snapds.bench;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;

/**
 * Brings a table to one store file per region (flush, major compaction, wait), so that both sides
 * of a read benchmark read the same kind of storage.
 */
final class Compaction {
  private Compaction() {}

  static void settle(Connection connection, TableName table) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      admin.flush(table);
      admin.majorCompact(table);
      // the request is asynchronous: wait until it has started and then finished
      long deadline = System.currentTimeMillis() + 600_000;
      Thread.sleep(500);
      while (admin.getCompactionState(table) != CompactionState.NONE) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("major compaction of " + table + " did not finish in 10 minutes");
        }
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("waiting for the compaction of " + table);
    }
  }
}
