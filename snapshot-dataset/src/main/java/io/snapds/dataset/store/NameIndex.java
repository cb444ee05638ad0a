package io.snapds.dataset.store;

import static io.snapds.dataset.store.MetadataLayout.key;

import io.snapds.dataset.SnapshotId;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A name index: rows kind + name whose column {@code id} holds the snapshot the name points at.
 * Three: tags ({@code t}), run ids ({@code r}, idempotent runs) and source keys ({@code k},
 * shared builds). Reads are cached for the transaction.
 */
final class NameIndex {
  private static final byte[] ID = Bytes.toBytes("id");

  private final ViewRows rows;
  private final byte kind;
  private final Map<String, Optional<SnapshotId>> names = new HashMap<>();

  NameIndex(ViewRows rows, byte kind) {
    this.rows = rows;
    this.kind = kind;
  }

  /** The snapshot {@code name} points at; empty when it points nowhere. */
  Optional<SnapshotId> get(String name) {
    return names.computeIfAbsent(name, n -> {
      byte[] row = key(kind, n);
      NavigableMap<byte[], byte[]> cols = rows.get(row);
      if (cols.isEmpty()) {
        return Optional.empty();
      }
      MetadataCodec.Columns c = rows.columns(row, cols);
      return Optional.of(c.id(c.longValue(ID)));
    });
  }

  /** Points {@code name} at {@code id}, unless it already does. */
  void put(String name, SnapshotId id) {
    if (!get(name).equals(Optional.of(id))) {
      set(name, id);
    }
  }

  /** Points {@code name} at {@code id}, writing the column whatever it holds now. */
  void set(String name, SnapshotId id) {
    rows.write(key(kind, name), ID, id.toBytes());
    names.put(name, Optional.of(id));
  }

  /** Deletes the column: {@code name} points nowhere (a tag moved off its snapshot). */
  void unset(String name) {
    rows.write(key(kind, name), ID, null);
    names.put(name, Optional.empty());
  }

  /** Deletes the row for good, with a purge later (its snapshot went past the horizon). */
  void drop(String name) {
    byte[] row = key(kind, name);
    rows.deleteRow(row, rows.get(row));
    names.put(name, Optional.empty());
  }
}
