package io.snapds.bench;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** Ours: each version is a new snapshot; publish moves the current pointer; cleanup after. */
final class SnapshotReplace implements ReplaceStrategy {
  static final int RETAIN = 3;
  private final BenchContext ctx;
  private SnapshotDataset dataset;
  private final ThreadLocal<SnapshotDataset> readers = new ThreadLocal<>();

  SnapshotReplace(BenchContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public String name() {
    return "snapshots (ours)";
  }

  @Override
  public String description() {
    return "`newSnapshot().begin()`, write, `commit()`, then `cleanup()`; retention keeps the last " + RETAIN
        + " snapshots (for rollback). Reader: `dataset.readCurrent().get(keys)`.";
  }

  @Override
  public void setUp(long rows, int label) {
    dataset = ctx.createDataset("replace", DatasetProperties.builder()
        .retention(RetentionPolicy.retainLast(RETAIN)).build());
    write(rows, label);
  }

  private void write(long rows, int label) {
    try (SnapshotWriter w = dataset.newSnapshot().begin()) {
      RowData.write(w, label, rows);
      w.commit();
    }
  }

  @Override
  public void replace(long rows, int label) {
    write(rows, label);
  }

  /** Run after each replacement, outside the time until visible: it frees the expired snapshot. */
  void cleanup() {
    dataset.cleanup();
  }

  @Override
  public ReadSample read(List<byte[]> keys) {
    SnapshotDataset reader = readers.get();
    if (reader == null) {
      reader = ctx.datasets().open(dataset.id()); // not thread-safe: one per reader thread
      readers.set(reader);
    }
    SampleCollector sample = new SampleCollector(keys.size());
    for (Optional<SnapshotRow> row : reader.readCurrent().get(keys)) {
      row.ifPresent(r -> sample.addValues(r.families().get(RowData.FAMILY_BYTES).values()));
    }
    return sample.sample();
  }

  @Override
  public Storage storage() throws IOException {
    return PlainOps.storage(ctx, List.of(dataset.id().dataTable()));
  }

  @Override
  public void close() {
    if (dataset != null) {
      ctx.drop(dataset);
    }
  }
}
