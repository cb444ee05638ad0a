package io.snapds.cli.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
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

  /** A typed record: one member per field of its schema, in order, each as {@link ValueText#json}. */
  public static ObjectNode record(SchemaRecord record) {
    ObjectNode node = MAPPER.createObjectNode();
    for (Field f : record.schema().fields()) {
      node.set(f.name(), ValueText.json(f, record.get(f.name())));
    }
    return node;
  }

  /** A schema: its id, text form and fields (name, id, type, key, nullable). */
  public static ObjectNode schema(int id, Schema schema) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", id);
    node.put("schema", schema.toString());
    ArrayNode fields = node.putArray("fields");
    for (Field f : schema.fields()) {
      fields.addObject().put("id", f.id()).put("name", f.name()).put("type", f.type().toString())
          .put("key", f.isKey()).put("nullable", f.isNullable());
    }
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
    s.schemaId().ifPresent(id -> node.put("schema", id));
    s.stagedAt().ifPresent(t -> node.put("stagedAt", t.toString()));
    if (s.discarded()) {
      node.put("discarded", true);
    }
    s.group().ifPresent(g -> node.put("group", g));
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
