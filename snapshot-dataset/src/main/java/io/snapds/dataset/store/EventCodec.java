package io.snapds.dataset.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * The stored form of a {@link DatasetEvent}: one JSON object per {@code e} row (schema in
 * docs/events.md). Readers accept any schema version they know the fields of and ignore fields
 * they do not know, so a later version can add fields without breaking older consumers.
 */
@org.apache.yetus.audience.InterfaceAudience.Private
public final class EventCodec {
  private static final ObjectMapper JSON = new ObjectMapper();

  private EventCodec() {}

  /** The event as one line of JSON (the stored form; see docs/events.md). */
  public static String toJson(DatasetEvent e) {
    return new String(encode(e), java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * Parses the JSON form of an event (from a sink's message, say).
   *
   * @throws IllegalArgumentException naming the text when it is not an event of a known schema
   */
  public static DatasetEvent fromJson(String json) {
    try {
      return parse(JSON.readTree(json));
    } catch (IOException | RuntimeException ex) {
      throw new IllegalArgumentException("not a dataset event (JSON of a known schema): '" + json + "': " + ex, ex);
    }
  }

  static byte[] encode(DatasetEvent e) {
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", e.schemaVersion());
    n.put("type", e.type().name());
    n.put("dataset", e.dataset().toString());
    n.put("sequence", e.sequence());
    e.snapshot().ifPresent(id -> n.put("snapshot", id.value())); // absent: a dataset event without one
    e.runId().ifPresent(r -> n.put("runId", r));
    e.sourceKey().ifPresent(k -> n.put("sourceKey", k));
    n.put("rowCount", e.rowCount());
    n.put("commitTime", e.commitTime().toString());
    try {
      return JSON.writeValueAsBytes(n);
    } catch (IOException ex) {
      throw new IllegalStateException("cannot encode event " + e, ex);
    }
  }

  static DatasetEvent decode(DatasetId dataset, byte[] row, byte[] json) {
    try {
      return parse(JSON.readTree(json));
    } catch (IOException | RuntimeException ex) {
      throw new CorruptMetadataException(dataset, org.apache.hadoop.hbase.util.Bytes.toStringBinary(row),
          "event is not valid JSON of a known schema: " + ex);
    }
  }

  private static DatasetEvent parse(JsonNode n) {
    return new DatasetEvent(n.get("schema").asInt(), DatasetEvent.Type.valueOf(n.get("type").asText()),
        DatasetId.parse(n.get("dataset").asText()), n.get("sequence").asLong(),
        n.hasNonNull("snapshot") ? Optional.of(SnapshotId.of(n.get("snapshot").asLong())) : Optional.empty(),
        text(n, "runId"), text(n, "sourceKey"),
        n.get("rowCount").asLong(), Instant.parse(n.get("commitTime").asText()));
  }

  private static Optional<String> text(JsonNode n, String field) {
    return n.hasNonNull(field) ? Optional.of(n.get(field).asText()) : Optional.empty();
  }
}
