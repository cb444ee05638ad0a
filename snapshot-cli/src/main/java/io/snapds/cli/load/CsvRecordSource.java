package io.snapds.cli.load;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.QuoteMode;

/**
 * CSV with a header line naming the columns (RFC 4180 quoting, via Commons CSV). Every record
 * must have as many fields as the header; an empty field is an empty value, or null when opened
 * with empty-is-null (then a quoted {@code ""} is the empty string).
 */
final class CsvRecordSource implements RecordSource {
  private final CSVParser parser;
  private final Iterator<CSVRecord> records;
  private final List<String> header;

  private CsvRecordSource(CSVParser parser, List<String> header) {
    this.parser = parser;
    this.records = parser.iterator();
    this.header = header;
  }

  static CsvRecordSource open(Reader reader, char delimiter, boolean emptyIsNull) throws BadInputException, IOException {
    CSVFormat.Builder builder = CSVFormat.RFC4180.builder().setDelimiter(delimiter).setHeader()
        .setSkipHeaderRecord(true).setAllowDuplicateHeaderNames(false).setAllowMissingColumnNames(false)
        .setIgnoreSurroundingSpaces(false);
    if (emptyIsNull) {
      // Commons CSV tells a quoted "" from an empty field only in a strict quote mode
      builder.setNullString("").setQuoteMode(QuoteMode.ALL_NON_NULL);
    }
    CSVFormat format = builder.build();
    CSVParser parser;
    ReadFailures file = new ReadFailures(reader);
    try {
      parser = format.parse(file);
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      throw new BadInputException(1, "bad header line: " + e.getMessage());
    } catch (IOException e) {
      if (file.failed()) {
        throw e; // the file could not be read
      }
      // commons-csv reports a malformed header (an unterminated quote, say) as an IOException
      throw new BadInputException(1, "bad header line: " + e.getMessage());
    }
    List<String> header = parser.getHeaderNames();
    if (header.isEmpty()) {
      parser.close();
      throw new BadInputException(1, "no header line: the first line must name the columns");
    }
    return new CsvRecordSource(parser, header);
  }

  @Override
  public Optional<InputRecord> next() throws BadInputException, IOException {
    long line = parser.getCurrentLineNumber() + 1;
    CSVRecord record;
    try {
      if (!records.hasNext()) {
        return Optional.empty();
      }
      record = records.next();
    } catch (UncheckedIOException | IllegalStateException e) {
      throw new BadInputException(line, "malformed CSV: " + rootMessage(e));
    }
    if (record.size() != header.size()) {
      throw new BadInputException(line, "expected " + header.size() + " fields " + header + ", got " + record.size());
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (int i = 0; i < header.size(); i++) {
      fields.put(header.get(i), record.get(i));
    }
    return Optional.of(new InputRecord(line, fields));
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }

  /** Remembers whether the file itself failed, to tell a read error from a parse error. */
  private static final class ReadFailures extends java.io.FilterReader {
    private boolean failed;

    ReadFailures(Reader in) {
      super(in);
    }

    boolean failed() {
      return failed;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        failed = true;
        throw e;
      }
    }

    @Override
    public int read(char[] buf, int off, int len) throws IOException {
      try {
        return super.read(buf, off, len);
      } catch (IOException e) {
        failed = true;
        throw e;
      }
    }
  }
}
