package io.snapds.cli.load;

import io.snapds.dataset.SnapshotWriter;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Streams the records of a source into a snapshot writer, one row per record. The writer buffers
 * a bounded number of bytes; nothing else is kept. The caller commits (or, on an exception,
 * aborts by closing the writer).
 */
public final class SnapshotLoader {
  private final RowMapping mapping;
  private final ProgressMeter progress;

  public SnapshotLoader(RowMapping mapping, ProgressMeter progress) {
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
      InputRecord r = next.get();
      byte[] key = mapping.key(r);
      if (mapping.valueCount(r.fields()) == 0) {
        throw new BadInputException(r.line(), "no value besides the key columns (a row needs at least one cell)");
      }
      for (Map.Entry<String, String> f : r.fields().entrySet()) {
        if (mapping.isValueField(f.getKey())) {
          try {
            writer.put(key, mapping.family(), RowMapping.bytes(f.getKey()), RowMapping.bytes(f.getValue()));
          } catch (IllegalArgumentException e) {
            throw new BadInputException(r.line(), e.getMessage());
          }
        }
      }
      rows++;
      progress.update(rows);
    }
    progress.done(rows);
    return rows;
  }
}
