package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;
import static io.snapds.dataset.store.MetadataLayout.POSITION;
import static io.snapds.dataset.store.MetadataLayout.key;
import static io.snapds.dataset.store.MetadataLayout.kindStart;
import static io.snapds.dataset.store.MetadataLayout.kindStop;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Delivered positions of relays and consumers: rows {@code o} + name, column {@code seq} the
 * sequence of the newest outbox event the relay or consumer acknowledged (#13).
 */
final class PositionRows {
  private static final byte[] SEQUENCE = Bytes.toBytes("seq");

  private final ViewRows rows;
  private final OutboxRows outbox;
  private final Map<String, Long> positions = new HashMap<>();

  PositionRows(ViewRows rows, OutboxRows outbox) {
    this.rows = rows;
    this.outbox = outbox;
  }

  long deliveredPosition(String name) {
    return positions.computeIfAbsent(checkName(name), n -> {
      byte[] row = key(POSITION, n);
      NavigableMap<byte[], byte[]> cols = rows.get(row);
      return cols.isEmpty() ? 0L : rows.columns(row, cols).longValue(SEQUENCE);
    });
  }

  void putDeliveredPosition(String name, long sequence) {
    long last = outbox.lastEventSequence();
    checkArgument(sequence >= 0 && sequence <= last,
        "delivered position of '%s' must be in 0..%s (the last event of %s), got %s", name, last, rows.dataset(),
        sequence);
    if (deliveredPosition(name) != sequence) {
      rows.write(key(POSITION, name), SEQUENCE, Bytes.toBytes(sequence));
      positions.put(name, sequence);
    }
  }

  SortedMap<String, Long> deliveredPositions() {
    SortedMap<String, Long> out = new TreeMap<>();
    for (MetaRows.Row r : rows.scan(kindStart(POSITION), kindStop(POSITION), false, Integer.MAX_VALUE)) {
      String name = Bytes.toString(r.key(), 1, r.key().length - 1);
      out.put(name, rows.columns(r.key(), r.columns()).longValue(SEQUENCE));
    }
    out.putAll(positions);
    return out;
  }

  private static String checkName(String name) {
    checkArgument(name != null && !name.isBlank(), "relay or consumer name must not be empty, got '%s'", name);
    return name;
  }
}
