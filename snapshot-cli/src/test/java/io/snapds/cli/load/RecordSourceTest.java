package io.snapds.cli.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RecordSourceTest {
  private static List<InputRecord> readAll(RecordSource source) throws Exception {
    List<InputRecord> out = new ArrayList<>();
    Optional<InputRecord> r;
    while ((r = source.next()).isPresent()) {
      out.add(r.get());
    }
    return out;
  }

  @Test
  void csvRecordsCarryTheLineTheyStartOnEvenAfterMultiLineValues() throws Exception {
    String csv = "id,note\n1,plain\n2,\"two\nlines\"\n3,after\n";
    List<InputRecord> records = readAll(RecordSource.Format.CSV.open(new StringReader(csv), ','));
    assertEquals(List.of(2L, 3L, 5L), records.stream().map(InputRecord::line).toList());
    assertEquals(Map.of("id", "2", "note", "two\nlines"), records.get(1).fields());
  }

  @Test
  void csvFieldCountMismatchNamesTheLine() throws Exception {
    RecordSource source = RecordSource.Format.CSV.open(new StringReader("a;b\n1;2\n3\n"), ';');
    source.next();
    BadInputException e = assertThrows(BadInputException.class, source::next);
    assertEquals("line 3: expected 2 fields [a, b], got 1", e.getMessage());
  }

  @Test
  void csvDuplicateHeaderIsRefused() {
    BadInputException e = assertThrows(BadInputException.class,
        () -> RecordSource.Format.CSV.open(new StringReader("a,a\n1,2\n"), ','));
    assertEquals(1, e.line());
  }

  @Test
  void jsonLinesSkipBlankLinesAndCountThem() throws Exception {
    RecordSource source = RecordSource.Format.JSONL.open(new StringReader("{\"k\":1}\n\n{\"k\":true}\n[1]\n"), ',');
    assertEquals(1, source.next().orElseThrow().line());
    InputRecord second = source.next().orElseThrow();
    assertEquals(3, second.line());
    assertEquals(Map.of("k", "true"), second.fields());
    BadInputException e = assertThrows(BadInputException.class, source::next);
    assertEquals("line 4: expected a JSON object, got ARRAY", e.getMessage());
  }

  @Test
  void formatFollowsTheFileName() {
    assertEquals(Optional.of(RecordSource.Format.CSV), RecordSource.Format.ofFileName("x.TSV.gz"));
    assertEquals(Optional.of(RecordSource.Format.JSONL), RecordSource.Format.ofFileName("x.ndjson"));
    assertEquals(Optional.empty(), RecordSource.Format.ofFileName("x.parquet"));
  }
}
