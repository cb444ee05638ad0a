package io.snapds.events.example;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.RowChange;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.events.ChangeHandler;
import io.snapds.events.ChangesOnPublish;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

/**
 * A {@link ChangeHandler} that keeps a plain HBase table (a serving copy for an application that
 * reads HBase directly, say) equal to a dataset's current snapshot by applying only the rows each
 * publish or rollback changed: an added or changed row replaces the mirror's row, a removed row is
 * deleted. Use it with {@link ChangesOnPublish} and an {@link io.snapds.events.EventConsumer}.
 *
 * <p>The mirror's cells carry the event's sequence number as their timestamp: a row is replaced by
 * a delete of every version up to {@code sequence - 1} and a put at {@code sequence}, and removed by
 * a delete up to {@code sequence}. So an event handled twice (a redelivery, a crash before the
 * consumer recorded it) writes the same cells again, and an older event handled late changes
 * nothing a newer one wrote; and a row removed and added again by two events in the same
 * millisecond is not hidden by the delete (as it would be with the server's clock). On a resync (no
 * readable previous snapshot) every row of the mirror is deleted up to {@code sequence - 1} before
 * the snapshot's rows are written: readers of the mirror see it partly filled meanwhile, the price of
 * a mirror that is not itself a snapshot dataset. Mirror one dataset per table, and start a new
 * table if the dataset is dropped and created again (its sequence numbers start over). The mirror's
 * families must include the dataset's; applications read it without a time range.
 *
 * <p>Cost per event: the diff (two scans of the dataset, as {@code SnapshotDataset.diff}) and two
 * buffered mutations per changed row; a resync also scans the mirror's keys.
 */
public final class TableMirror implements ChangeHandler {
  private final Connection connection;
  private final TableName mirror;

  public TableMirror(Connection connection, TableName mirror) {
    this.connection = checkNotNull(connection, "connection");
    this.mirror = checkNotNull(mirror, "mirror");
  }

  @Override
  public void onPublished(DatasetEvent event, Optional<SnapshotId> previous, SnapshotId current,
      Iterable<RowChange> changes) throws IOException {
    long at = event.sequence();
    try (BufferedMutator out = connection.getBufferedMutator(mirror)) {
      if (previous.isEmpty()) {
        deleteEveryRow(out, at - 1);
      }
      for (RowChange c : changes) {
        if (c.kind() == RowChange.Kind.REMOVED) {
          out.mutate(new Delete(c.key(), at));
        } else {
          SnapshotRow row = c.after().orElseThrow();
          out.mutate(new Delete(row.key(), at - 1)); // the old row's columns, whichever they were
          Put p = new Put(row.key(), at);
          row.families().forEach((family, columns) -> columns.forEach((q, v) -> p.addColumn(family, q, at, v)));
          out.mutate(p);
        }
      }
      out.flush(); // a failure throws here: the event is offered again, and the same writes are redone
    }
  }

  private void deleteEveryRow(BufferedMutator out, long upTo) throws IOException {
    try (Table table = connection.getTable(mirror);
        ResultScanner keys = table.getScanner(new Scan().setFilter(new KeyOnlyFilter()))) {
      for (Result r : keys) {
        out.mutate(new Delete(r.getRow(), upTo));
      }
    }
  }

  @Override
  public String toString() {
    return "TableMirror{" + mirror + "}";
  }
}
