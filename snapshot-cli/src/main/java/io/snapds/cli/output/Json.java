package io.snapds.cli.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import java.io.PrintWriter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * JSON output. Row keys, qualifiers and values are bytes: they are written in HBase's printable
 * binary form ({@code Bytes.toStringBinary}: UTF-8 text as is, other bytes as {@code \xNN}), which
 * {@code Bytes.toBytesBinary} reads back.
 */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  public static ObjectNode row(SnapshotRow row) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("key", Bytes.toStringBinary(row.key()));
    ObjectNode columns = node.putObject("columns");
    row.families().forEach((f, cols) -> cols.forEach((q, v) ->
        columns.put(Bytes.toString(f) + ":" + Bytes.toStringBinary(q), Bytes.toStringBinary(v))));
    return node;
  }

  public static ObjectNode snapshot(SnapshotInfo s, boolean current) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", s.id().value());
    node.put("state", s.state().name());
    node.put("current", current);
    node.put("createdAt", s.createdAt().toString());
    s.committedAt().ifPresentOrElse(t -> node.put("committedAt", t.toString()), () -> node.putNull("committedAt"));
    node.put("rows", s.rowCount());
    node.put("bytes", s.byteCount());
    node.put("writer", s.writer());
    node.put("runId", s.runId().orElse(null));
    node.put("sourceKey", s.sourceKey().orElse(null));
    s.parentId().ifPresentOrElse(p -> node.put("parentId", p.value()), () -> node.putNull("parentId"));
    ArrayNode tags = node.putArray("tags");
    s.tags().forEach(tags::add);
    ObjectNode summary = node.putObject("summary");
    s.summary().forEach(summary::put);
    s.cleanedAt().ifPresent(t -> node.put("cleanedAt", t.toString()));
    return node;
  }

  /** Writes one value on one line. */
  public static void println(PrintWriter out, Object node) {
    try {
      out.println(MAPPER.writeValueAsString(node));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
