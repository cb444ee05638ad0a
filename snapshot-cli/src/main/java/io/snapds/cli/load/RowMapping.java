package io.snapds.cli.load;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.SnapshotWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * How a record becomes a row: the key is the key columns' values joined by a separator; every
 * other field becomes a cell {@code family:fieldName} holding the field's UTF-8 text.
 */
public final class RowMapping implements RecordMapping {
  private final List<String> keyColumns;
  private final String separator;
  private final String family;
  private final boolean keepKeyColumns;

  public RowMapping(List<String> keyColumns, String separator, String family, boolean keepKeyColumns) {
    checkArgument(!keyColumns.isEmpty(), "at least one key column is needed");
    this.keyColumns = List.copyOf(keyColumns);
    this.separator = separator;
    this.family = family;
    this.keepKeyColumns = keepKeyColumns;
  }

  public String family() {
    return family;
  }

  /** The row key of a record. */
  public byte[] key(InputRecord r) throws BadInputException {
    StringJoiner key = new StringJoiner(separator);
    for (String k : keyColumns) {
      String v = r.fields().get(k);
      if (v == null) {
        throw new BadInputException(r.line(), "no key column '" + k + "' (fields: " + r.fields().keySet() + ")");
      }
      if (v.isEmpty()) {
        throw new BadInputException(r.line(), "empty key column '" + k + "'");
      }
      key.add(v);
    }
    return key.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Whether a field is written as a cell. */
  public boolean isValueField(String field) {
    return keepKeyColumns || !keyColumns.contains(field);
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void write(InputRecord r, SnapshotWriter writer) throws BadInputException {
    byte[] key = key(r);
    if (valueCount(r.fields()) == 0) {
      throw new BadInputException(r.line(), "no value besides the key columns (a row needs at least one cell)");
    }
    for (Map.Entry<String, String> f : r.fields().entrySet()) {
      if (isValueField(f.getKey())) {
        try {
          writer.put(key, family, bytes(f.getKey()), bytes(f.getValue()));
        } catch (IllegalArgumentException e) {
          throw new BadInputException(r.line(), e.getMessage());
        }
      }
    }
  }

  /** Number of value cells of a record. */
  public int valueCount(Map<String, String> fields) {
    return (int) fields.keySet().stream().filter(this::isValueField).count();
  }
}
