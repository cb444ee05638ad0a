package io.snapds.it.cdap;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** What the snapds side JVM read of one dataset: its snapshots and the rows of the committed and staged ones. */
final class DatasetDump {
  private final JsonObject json;

  DatasetDump(JsonObject json) {
    this.json = json;
  }

  Optional<String> current() {
    JsonElement c = json.get("current");
    return c == null || c.isJsonNull() ? Optional.empty() : Optional.of(c.getAsString());
  }

  /** Every snapshot: id, state, runId, sourceKey, rowCount. */
  List<Map<String, String>> snapshots() {
    List<Map<String, String>> out = new ArrayList<>();
    for (JsonElement s : json.getAsJsonArray("snapshots")) {
      Map<String, String> info = new TreeMap<>();
      for (Map.Entry<String, JsonElement> e : s.getAsJsonObject().entrySet()) {
        info.put(e.getKey(), e.getValue().isJsonNull() ? null : e.getValue().getAsString());
      }
      out.add(info);
    }
    return out;
  }

  List<Map<String, String>> snapshotsIn(String state) {
    List<Map<String, String>> out = new ArrayList<>();
    for (Map<String, String> s : snapshots()) {
      if (state.equals(s.get("state"))) {
        out.add(s);
      }
    }
    return out;
  }

  /** The rows of a committed or staged snapshot (read by its id), each as {column: text of its cell}. */
  Set<Map<String, String>> rows(String snapshotId) {
    JsonElement rows = json.getAsJsonObject("rows").get(snapshotId);
    if (rows == null) {
      throw new AssertionError("no rows read for snapshot " + snapshotId + " (not committed or staged?): " + json);
    }
    Set<Map<String, String>> out = new HashSet<>();
    for (JsonElement row : rows.getAsJsonArray()) {
      Map<String, String> cells = new TreeMap<>();
      for (Map.Entry<String, JsonElement> e : row.getAsJsonObject().entrySet()) {
        cells.put(e.getKey(), e.getValue().getAsString());
      }
      out.add(cells);
    }
    return out;
  }

  @Override
  public String toString() {
    return json.toString();
  }
}
