package io.snapds.cli.demo;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.tephra.TransactionContext;
import org.apache.tephra.TransactionFailureException;

/**
 * Reads the dataset again and again while others publish: each read is a Tephra transaction in
 * which the dataset pins the current snapshot; the reader scans it all and compares the row count
 * and checksum with what the builder recorded in that snapshot's summary. A read that differs is
 * torn: it saw rows of more than one snapshot, or an incomplete one.
 */
final class ConsistencyReader implements Runnable {
  private final SnapshotDatasets datasets;
  private final DatasetId dataset;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<String> torn = Collections.synchronizedList(new ArrayList<>());
  private final Set<SnapshotId> seen = Collections.synchronizedSet(new TreeSet<>());
  private volatile long reads;
  private volatile String failure;

  ConsistencyReader(SnapshotDatasets datasets, DatasetId dataset) {
    this.datasets = datasets;
    this.dataset = dataset;
  }

  @Override
  public void run() {
    try (SnapshotDataset ds = datasets.open(dataset)) {
      TransactionContext tx = new TransactionContext(datasets.transactionClient(), ds);
      while (!stop.get()) {
        readOnce(ds, tx);
      }
      readOnce(ds, tx); // one more after the last change
    } catch (RuntimeException | TransactionFailureException e) {
      failure = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  /** Reads the snapshot current now in one transaction; returns it, if there was one. */
  Optional<SnapshotId> readOnce(SnapshotDataset ds, TransactionContext tx) throws TransactionFailureException {
    tx.start();
    try {
      Optional<SnapshotId> pinned = ds.pinnedSnapshot();
      if (pinned.isPresent()) {
        check(ds, ds.snapshot(pinned.get()));
      }
      tx.finish();
      return pinned;
    } catch (RuntimeException e) {
      tx.abort();
      throw e;
    }
  }

  private void check(SnapshotDataset ds, SnapshotInfo expected) {
    RowChecksum checksum = new RowChecksum();
    try (RowScanner rows = ds.scan(RowScan.all().caching(1000))) {
      for (SnapshotRow row : rows) {
        checksum.add(row);
      }
    }
    reads++;
    seen.add(expected.id());
    String want = expected.summary().get("checksum");
    if (checksum.rows() != expected.rowCount() || !checksum.value().equals(want)) {
      torn.add("snapshot " + expected.id() + ": published " + expected.rowCount() + " rows, checksum " + want
          + "; read " + checksum.rows() + " rows, checksum " + checksum.value());
    }
  }

  void stop() {
    stop.set(true);
  }

  long reads() {
    return reads;
  }

  List<String> torn() {
    return List.copyOf(torn);
  }

  Set<SnapshotId> snapshotsSeen() {
    return Set.copyOf(seen);
  }

  Optional<String> failure() {
    return Optional.ofNullable(failure);
  }
}
