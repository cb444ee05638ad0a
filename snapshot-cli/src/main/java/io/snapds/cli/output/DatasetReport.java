package io.snapds.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.dataset.DatasetStatus;
import io.snapds.dataset.HistoryEntry;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.lock.LockStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code snapds status} and the status page ({@code snapds ui}, the home server's page) say
 * about a dataset, computed once for both: its {@link DatasetStatus} with the ATTENTION list (the
 * rules are {@link DatasetStatus#attention}'s), the JSON of {@code status --json}, and the timeline
 * of the current pointer's changes (publishes and rollbacks) with the records of their snapshots.
 */
public final class DatasetReport {
  /** How many changes of the current pointer a timeline holds unless told otherwise. */
  public static final int DEFAULT_TIMELINE = 200;

  private DatasetReport() {}

  /** A dataset's status and what of it needs a repair or a person. */
  public record Status(DatasetStatus status, List<String> attention) {
    public Status {
      attention = List.copyOf(attention);
    }
  }

  /** Reads {@code ds}'s status; {@code stale}: how long a snapshot may wait for its readers or audit. */
  public static Status status(SnapshotDataset ds, Duration stale) {
    DatasetStatus s = ds.status();
    return new Status(s, s.attention(stale));
  }

  /** What a snapshot awaiting cleanup waits for, in words. */
  public static String waitsFor(DatasetStatus.Backlog b) {
    return switch (b.waitsFor()) {
      case NOTHING -> "nothing: the next cleanup (snapds gc) deletes it";
      case FENCE -> "its cleanup fence (set by the next cleanup)";
      case PINS -> b.livePins() + " reader pin(s)";
      case READERS -> "transaction " + b.oldestReader().map(String::valueOf).orElse("?")
          + " in progress, which began before it expired";
    };
  }

  /** The object {@code snapds status --json} prints for one dataset. */
  public static ObjectNode toJson(Status status) {
    DatasetStatus s = status.status();
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("dataset", s.dataset().toString());
    node.put("at", s.at().toString());
    s.current().ifPresentOrElse(c -> node.set("current", Json.snapshot(c, true)), () -> node.putNull("current"));
    s.sinceLastPublish().ifPresentOrElse(d -> node.put("secondsSinceLastPublish", d.toSeconds()),
        () -> node.putNull("secondsSinceLastPublish"));
    ArrayNode building = node.putArray("building");
    s.building().forEach(b -> building.addObject().put("id", b.snapshot().id().value()).put("lock", b.lockName())
        .put("writer", b.snapshot().writer()).put("createdAt", b.snapshot().createdAt().toString())
        .put("transactionOpen", b.transactionOpen()).put("leaseHeld", b.leaseHeld()));
    ArrayNode staged = node.putArray("staged");
    s.staged().forEach(x -> staged.add(Json.snapshot(x, false)));
    ArrayNode locks = node.putArray("locks");
    for (LockStatus l : s.locks()) {
      ObjectNode lock = locks.addObject().put("name", l.lockName()).put("lastToken", l.lastToken())
          .put("waiters", l.waiters());
      l.lease().ifPresentOrElse(x -> lock.putObject("lease").put("owner", x.owner()).put("token", x.token())
          .put("expiresAt", x.expiresAt().toString()).put("expired", x.isExpired(s.at())), () -> lock.putNull("lease"));
    }
    ArrayNode backlog = node.putArray("awaitingCleanup");
    s.awaitingCleanup().forEach(b -> backlog.addObject().put("id", b.snapshot().id().value())
        .put("state", b.snapshot().state().name()).put("waitsFor", b.waitsFor().name()).put("livePins", b.livePins()));
    node.put("lastEventSequence", s.lastEventSequence());
    ArrayNode deliveries = node.putArray("deliveries");
    s.deliveries().forEach(d -> deliveries.addObject().put("name", d.name()).put("position", d.position())
        .put("undelivered", d.undelivered()).put("behindWindow", d.behindWindow()));
    ArrayNode attention = node.putArray("attention");
    status.attention().forEach(attention::add);
    return node;
  }

  /**
   * The newest {@code limit} changes of {@code ds}'s current pointer, oldest first: when, why
   * ({@code publish}, {@code rollback}, ...), and the record of the snapshot made current
   * ({@link Json#snapshot}; null when the history horizon already deleted it). Reads the history
   * and the snapshot records the horizon keeps ({@code history.retain.last}, 100 by default, plus
   * what was published since the last cleanup trimmed them), once each, whatever {@code limit} is.
   *
   * @throws IllegalArgumentException if {@code limit} is not positive
   */
  public static ArrayNode timeline(SnapshotDataset ds, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("the timeline's length must be at least 1, not " + limit);
    }
    List<HistoryEntry> history = ds.history();
    List<HistoryEntry> newest = history.subList(Math.max(0, history.size() - limit), history.size());
    Map<SnapshotId, SnapshotInfo> records = new HashMap<>();
    ds.snapshots().forEach(s -> records.put(s.id(), s));
    Optional<SnapshotId> current = ds.currentSnapshot().map(SnapshotInfo::id);
    ArrayNode out = Json.MAPPER.createArrayNode();
    for (HistoryEntry h : newest) {
      ObjectNode change = out.addObject();
      change.put("at", h.at().toString());
      change.put("id", h.snapshot().value());
      change.put("reason", h.reason());
      change.put("rollback", h.reason().startsWith("rollback"));
      SnapshotInfo record = records.get(h.snapshot());
      if (record == null) {
        change.putNull("snapshot");
      } else {
        change.set("snapshot", Json.snapshot(record, current.equals(Optional.of(record.id()))));
      }
    }
    return out;
  }
}
