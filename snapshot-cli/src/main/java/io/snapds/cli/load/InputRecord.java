package io.snapds.cli.load;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** One record of an input file: the line it starts on and its fields, name to text (no nulls). */
public record InputRecord(long line, Map<String, String> fields) {
  public InputRecord {
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }
}
