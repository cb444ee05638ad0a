package io.snapds.cli.load;

import java.io.IOException;
import java.io.Reader;
import java.util.Optional;

/**
 * Records of an input file, read one at a time (the file is never held in memory as a whole).
 * Close it when done.
 */
public interface RecordSource extends AutoCloseable {
  /**
   * The next record, or empty at the end.
   *
   * @throws BadInputException for a record that cannot be read (the line and the reason)
   * @throws IOException when the file cannot be read
   */
  Optional<InputRecord> next() throws BadInputException, IOException;

  @Override
  void close() throws IOException;

  /** The input formats, chosen by {@code --format} or the file name's extension. */
  enum Format {
    CSV, JSONL;

    public RecordSource open(Reader reader, char delimiter) throws BadInputException, IOException {
      return open(reader, delimiter, false);
    }

    /**
     * @param typed for a dataset with a schema: an empty unquoted CSV field is null (a quoted
     *     {@code ""} the empty string), and JSON numbers keep their exact digits (no double in between)
     */
    public RecordSource open(Reader reader, char delimiter, boolean typed) throws BadInputException, IOException {
      return this == CSV ? CsvRecordSource.open(reader, delimiter, typed) : new JsonLinesRecordSource(reader, typed);
    }

    /** CSV for {@code .csv}/{@code .tsv}/{@code .txt}, JSON Lines for {@code .jsonl}/{@code .ndjson}/{@code .json}. */
    public static Optional<Format> ofFileName(String name) {
      String n = name.toLowerCase(java.util.Locale.ROOT);
      if (n.endsWith(".gz")) {
        n = n.substring(0, n.length() - 3);
      }
      if (n.endsWith(".csv") || n.endsWith(".tsv") || n.endsWith(".txt")) {
        return Optional.of(CSV);
      }
      if (n.endsWith(".jsonl") || n.endsWith(".ndjson") || n.endsWith(".json")) {
        return Optional.of(JSONL);
      }
      return Optional.empty();
    }
  }
}
