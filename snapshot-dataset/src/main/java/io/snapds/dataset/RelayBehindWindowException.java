package io.snapds.dataset;

/**
 * A relay's delivered position is older than the dataset's retained event window
 * ({@code events.retain.last}): events it never delivered were pruned, so its destination
 * missed them. The relay does not skip them silently: it stops here, and
 * {@link SnapshotDataset#status()} reports it under attention until a person acts. What to do:
 * resync what consumes the destination from the dataset's state ({@link SnapshotDataset#history()},
 * {@link SnapshotDataset#currentSnapshot()}), then move the relay on with
 * {@link Relay#skipTo(long)} to {@link #oldestRetained()} - 1.
 */
public class RelayBehindWindowException extends EventsPrunedException {
  private final String relay;

  public RelayBehindWindowException(DatasetId dataset, String relay, long delivered, long oldestRetained) {
    super(dataset, delivered, oldestRetained, "relay '" + relay + "' of dataset " + dataset + " delivered events up to "
        + delivered + ", but the events after it up to " + (oldestRetained - 1) + " were pruned (oldest retained: "
        + oldestRetained + "; see events.retain.last): resync its consumers, then Relay.skipTo("
        + (oldestRetained - 1) + ")");
    this.relay = relay;
  }

  /** The relay's name (its position row). */
  public String relay() {
    return relay;
  }
}
