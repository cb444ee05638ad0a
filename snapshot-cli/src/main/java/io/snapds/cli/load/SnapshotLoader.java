package io.snapds.cli.load;

import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.Optional;

/**
 * Streams the records of a source into a snapshot writer, one row per record. The writer buffers
 * a bounded number of bytes; nothing else is kept. The caller commits (or, on an exception,
 * aborts by closing the writer).
 */
public final class SnapshotLoader {
  private final RecordMapping mapping;
  private final ProgressMeter progress;

  public SnapshotLoader(RecordMapping mapping, ProgressMeter progress) {
    this.mapping = mapping;
    this.progress = progress;
  }

  /**
   * @return the number of records loaded
   * @throws BadInputException at the first record that cannot be loaded
   */
  public long load(RecordSource source, SnapshotWriter writer) throws BadInputException, IOException {
    long rows = 0;
    Optional<InputRecord> next;
    while ((next = source.next()).isPresent()) {
      mapping.write(next.get(), writer);
      rows++;
      progress.update(rows);
    }
    progress.done(rows);
    return rows;
  }
}
