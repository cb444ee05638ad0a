package io.snapds.cli.load;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One record of an input file: the line it starts on and its fields, name to text. A value is
 * null only for a CSV read with empty-is-null ({@link RecordMapping#emptyIsNull()}); a JSON null
 * leaves the field out.
 */
public record InputRecord(long line, Map<String, String> fields) {
  public InputRecord {
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }
}
