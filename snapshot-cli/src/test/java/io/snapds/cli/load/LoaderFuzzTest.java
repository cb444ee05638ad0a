package io.snapds.cli.load;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.snapds.dataset.testing.Fuzz;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The CSV and JSON Lines readers over random and adversarial files (invalid UTF-8, NUL bytes,
 * huge fields, deeply nested JSON, header-only and empty files): every record is read or refused
 * with a {@link BadInputException} naming its line, never another exception.
 */
class LoaderFuzzTest {
  private final RowMapping mapping = new RowMapping(List.of("id"), "|", "d", false);

  @Test
  void csvFilesGiveRowsOrBadInput() {
    Fuzz fuzz = Fuzz.seeded(1820);
    for (int i = 0; i < Fuzz.count(300); i++) {
      StringBuilder file = new StringBuilder();
      if (!fuzz.chance(0.05)) {
        file.append(fuzz.chance(0.7) ? "id,a,b" : fuzz.string()).append('\n');
      }
      int lines = fuzz.chance(0.1) ? 0 : fuzz.between(1, 8); // sometimes header only
      for (int l = 0; l < lines; l++) {
        file.append(fuzz.chance(0.5) ? fuzz.string() + "," + fuzz.string() + "," + fuzz.string() : fuzz.string());
        file.append(fuzz.chance(0.9) ? "\n" : "\r\n");
      }
      byte[] bytes = fuzz.chance(0.2) ? fuzz.bytes() : file.toString().getBytes(StandardCharsets.UTF_8);
      readAll(fuzz, i, RecordSource.Format.CSV, bytes);
    }
  }

  @Test
  void jsonLinesFilesGiveRowsOrBadInput() {
    Fuzz fuzz = Fuzz.seeded(1821);
    for (int i = 0; i < Fuzz.count(300); i++) {
      StringBuilder file = new StringBuilder();
      int lines = fuzz.between(0, 6);
      for (int l = 0; l < lines; l++) {
        int kind = fuzz.random().nextInt(5);
        switch (kind) {
          case 0 -> file.append("{\"id\":").append(jsonString(fuzz.string())).append(",\"a\":")
              .append(fuzz.chance(0.5) ? Long.toString(fuzz.anyLong()) : jsonString(fuzz.string())).append('}');
          case 1 -> file.append(nested(fuzz.between(1, 3000), fuzz.chance(0.5)));
          case 2 -> file.append("{\"id\":\"k\",\"a\":").append(nested(fuzz.between(1, 3000), fuzz.chance(0.5))).append('}');
          default -> file.append(fuzz.string());
        }
        file.append('\n');
      }
      byte[] bytes = fuzz.chance(0.2) ? fuzz.bytes() : file.toString().getBytes(StandardCharsets.UTF_8);
      readAll(fuzz, i, RecordSource.Format.JSONL, bytes);
    }
  }

  private void readAll(Fuzz fuzz, int i, RecordSource.Format format, byte[] bytes) {
    // as LoadCommand reads a file: UTF-8, malformed bytes replaced
    try (RecordSource source = format.open(new BufferedReader(new InputStreamReader(
        new ByteArrayInputStream(bytes), StandardCharsets.UTF_8)), ',')) {
      for (int guard = 0; guard < 10_000; guard++) {
        Optional<InputRecord> r;
        try {
          r = source.next();
        } catch (BadInputException refused) {
          assertTrue(refused.getMessage().startsWith("line "), fuzz.where(i) + ": " + refused.getMessage());
          return; // the loader stops at the first bad record and publishes nothing
        }
        if (r.isEmpty()) {
          return;
        }
        try {
          assertTrue(mapping.key(r.get()).length > 0, fuzz.where(i));
        } catch (BadInputException refused) {
          assertTrue(refused.getMessage().startsWith("line "), fuzz.where(i) + ": " + refused.getMessage());
          return;
        }
      }
      fail(fuzz.where(i) + ": more records than lines");
    } catch (BadInputException refused) {
      assertTrue(refused.getMessage().startsWith("line ") || !refused.getMessage().isEmpty(), fuzz.where(i));
    } catch (Exception | StackOverflowError e) {
      fail(fuzz.where(i) + ": " + format + " threw " + e, e);
    }
  }

  private static String nested(int depth, boolean arrays) {
    StringBuilder sb = new StringBuilder();
    for (int d = 0; d < depth; d++) {
      sb.append(arrays ? "[" : "{\"x\":");
    }
    sb.append('1');
    for (int d = 0; d < depth; d++) {
      sb.append(arrays ? "]" : "}");
    }
    return sb.toString();
  }

  private static String jsonString(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
