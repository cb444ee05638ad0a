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
final class EventCodec {
  private static final ObjectMapper JSON = new ObjectMapper();

  private EventCodec() {}

  static byte[] encode(DatasetEvent e) {
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", e.schemaVersion());
    n.put("type", e.type().name());
    n.put("dataset", e.dataset().toString());
    n.put("sequence", e.sequence());
    n.put("snapshot", e.snapshotId().value());
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
      JsonNode n = JSON.readTree(json);
      return new DatasetEvent(n.get("schema").asInt(), DatasetEvent.Type.valueOf(n.get("type").asText()),
          DatasetId.parse(n.get("dataset").asText()), n.get("sequence").asLong(),
          SnapshotId.of(n.get("snapshot").asLong()), text(n, "runId"), text(n, "sourceKey"),
          n.get("rowCount").asLong(), Instant.parse(n.get("commitTime").asText()));
    } catch (IOException | RuntimeException ex) {
      throw new CorruptMetadataException(dataset, org.apache.hadoop.hbase.util.Bytes.toStringBinary(row),
          "event is not valid JSON of a known schema: " + ex);
    }
  }

  private static Optional<String> text(JsonNode n, String field) {
    return n.hasNonNull(field) ? Optional.of(n.get(field).asText()) : Optional.empty();
  }
}
