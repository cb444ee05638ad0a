package io.snapds.cli.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * JSON Lines: one JSON object per line; blank lines are skipped. Strings are taken as they are;
 * numbers and booleans as their JSON text; nested objects and arrays as JSON text; nulls are left
 * out (no cell).
 */
final class JsonLinesRecordSource implements RecordSource {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectMapper EXACT =
      new ObjectMapper().enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private final BufferedReader reader;
  private final ObjectMapper mapper;
  private long line;

  /** @param exactNumbers numbers with a fraction or exponent as their exact decimal text, not through a double */
  JsonLinesRecordSource(Reader reader, boolean exactNumbers) {
    this.reader = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
    this.mapper = exactNumbers ? EXACT : MAPPER;
  }

  @Override
  public Optional<InputRecord> next() throws BadInputException, IOException {
    String text;
    do {
      text = reader.readLine();
      if (text == null) {
        return Optional.empty();
      }
      line++;
    } while (text.isBlank());
    JsonNode node;
    try {
      node = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw new BadInputException(line, "malformed JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new BadInputException(line, "expected a JSON object, got " + (node == null ? "nothing" : node.getNodeType()));
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (!v.isNull()) {
        fields.put(f.getKey(), v.isValueNode() ? v.asText() : v.toString());
      }
    }
    return Optional.of(new InputRecord(line, fields));
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
