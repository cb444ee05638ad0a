package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.lock.LockStatus;
import io.snapds.dataset.store.MetadataView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Function;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionAware;
import org.apache.tephra.TransactionType;

/**
 * The reading side of one opened dataset: the Tephra transaction it may be in (whose metadata view
 * pins the current snapshot for {@link SnapshotDataset}'s reads), the resolution of "which
 * snapshot" (current, by id, as of a time, by tag) into a reader fixed on it, reader pins, and the
 * operator's status. Every metadata read goes through {@link #read}: the transaction's view inside
 * one, the latest metadata outside. Not thread-safe, like the dataset it belongs to.
 */
final class DatasetReads implements TransactionAware {
  /**
   * How long the reader pin of a long transaction lasts if its process dies without ending it.
   * Cleanup does not wait for long transactions (other applications run them for hours), so a
   * long transaction that reads this dataset says so with a pin.
   */
  static final Duration LONG_TX_PIN_TTL = Duration.ofDays(1);
  /** How many times {@link #pinCurrent} resolves and pins again when publishes keep landing. */
  static final int PIN_CURRENT_ATTEMPTS = 10;

  private final OperationsContext ops;
  private final DatasetId id;
  private final TransactionAware metaView;
  private Transaction tx;
  private MetadataView txView;
  /** The reader pin of a long transaction (see {@link #LONG_TX_PIN_TTL}). */
  private ReaderPin txPin;

  DatasetReads(OperationsContext ops) {
    this.ops = ops;
    this.id = ops.id();
    this.metaView = ops.store().newTransactionAware();
  }

  // ---- Tephra callbacks: pin the current snapshot for the transaction ----

  @Override
  public void startTx(Transaction transaction) {
    metaView.startTx(transaction);
    this.tx = transaction;
    this.txView = ops.store().view(metaView);
    Optional<SnapshotId> current = txView.current(); // resolve the pin now: one row, the pointer
    if (transaction.getType() == TransactionType.LONG && current.isPresent()) {
      txPin = new ReaderPin(ops.locks(), id, ops.clock(), current.get(), "long-tx:" + transaction.getTransactionId(),
          LONG_TX_PIN_TTL, ops.metrics().pinsHeld());
      requirePinHolds(transaction, current.get());
    }
  }

  /**
   * The handshake that makes a long transaction's pin protect what it resolved. Cleanup fences a
   * snapshot (commits its cleanup fence), then reads its pins; this reader wrote its pin, and now
   * reads the snapshot's record afresh. If no fence shows, the fence commits after this read
   * began, so after the pin row was written, and the cleanup run that acts on it reads its pins
   * later still and finds this one. If a fence shows, a cleanup may already have passed its pin
   * check (and deleted the rows: the transaction cannot see a newer snapshot instead), so the
   * transaction is refused with the pin released. One metadata read per long transaction.
   *
   * @throws SnapshotNotAvailableException naming the snapshot, when it was fenced for cleanup
   *     (or cleaned) before the pin was written
   */
  private void requirePinHolds(Transaction transaction, SnapshotId pinned) {
    Optional<SnapshotInfo> now;
    try {
      now = ops.store().read(view -> view.snapshot(pinned));
    } catch (RuntimeException e) {
      endTx();
      throw e;
    }
    if (now.isPresent() && now.get().cleanupFence() == 0 && now.get().cleanedAt().isEmpty()) {
      return;
    }
    endTx();
    throw new SnapshotNotAvailableException(id, "long transaction " + transaction.getTransactionId()
        + " resolved snapshot " + pinned + " of " + id + " as current, but before its reader pin was written the"
        + " snapshot " + now.map(s -> s.cleanedAt().isPresent() ? "was cleaned" : "expired and was fenced for cleanup")
            .orElse("passed the history horizon")
        + ", so its rows may be deleted; start a new transaction (it reads the current snapshot)");
  }

  @Override
  public void updateTx(Transaction transaction) {
    metaView.updateTx(transaction);
    this.tx = transaction;
  }

  @Override
  public Collection<byte[]> getTxChanges() {
    return metaView.getTxChanges();
  }

  @Override
  public boolean commitTx() throws Exception {
    return metaView.commitTx();
  }

  @Override
  public void postTxCommit() {
    try {
      metaView.postTxCommit();
    } finally {
      endTx();
    }
  }

  @Override
  public boolean rollbackTx() throws Exception {
    try {
      return metaView.rollbackTx();
    } finally {
      endTx();
    }
  }

  /** Forgets the transaction and releases its long-transaction pin, if it had one. */
  void endTx() {
    tx = null;
    txView = null;
    if (txPin != null) {
      ReaderPin pin = txPin;
      txPin = null;
      pin.close();
    }
  }

  @Override
  public String getTransactionAwareName() {
    return "snapshot-dataset:" + id;
  }

  /** The snapshot the current transaction pinned; empty when the dataset had none yet. */
  Optional<SnapshotId> pinnedSnapshot() {
    checkState(tx != null, "no transaction: call startTx (or use readCurrent()) first");
    return txView.current();
  }

  /** A reader of the snapshot the current transaction pinned. */
  SnapshotReader pinned() {
    SnapshotId pinned = pinnedSnapshot().orElseThrow(this::nothingPublished);
    return reader(ops.keys(pinned));
  }

  // ---- readers fixed on one snapshot ----

  SnapshotReader readCurrent() {
    return reader(ops.keys(currentId()));
  }

  SnapshotReader readSnapshot(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    return reader(ops.remember(read(view -> readable(view, snapshot))));
  }

  SnapshotReader readAsOf(Instant time) {
    checkNotNull(time, "time must not be null");
    return reader(ops.remember(read(view -> asOf(view, time))));
  }

  SnapshotReader readTag(String tag) {
    return reader(ops.remember(read(view -> tagged(view, tag))));
  }

  private SnapshotInfo asOf(MetadataView view, Instant time) {
    HistoryEntry asOf = view.currentAt(time).orElseThrow(() -> view.historyHorizon().isPresent()
        ? new HistoryHorizonException(id, "time " + time)
        : new SnapshotNotAvailableException(id, "dataset " + id + " had no current snapshot at " + time));
    return readable(view, asOf.snapshot());
  }

  private SnapshotInfo tagged(MetadataView view, String tag) {
    return readable(view, view.tagged(tag).orElseThrow(() ->
        new SnapshotNotAvailableException(id, "dataset " + id + " has no snapshot tagged '" + tag + "'")).id());
  }

  /**
   * Resolves {@code selector} as a read with it would ({@link #readSnapshot}, {@link #readTag},
   * {@link #readAsOf}) and pins the snapshot for {@code owner}: "current" through
   * {@link #pinCurrent}, the others through {@link #pin}, which checks again once the pin row exists.
   *
   * @throws SnapshotNotAvailableException if there is no such readable snapshot
   */
  ReaderPin pin(io.snapds.dataset.read.SnapshotSelector selector, String owner, Duration ttl) {
    checkNotNull(selector, "snapshot selector must not be null");
    if (selector.isCurrent()) {
      return pinCurrent(owner, ttl);
    }
    SnapshotId snapshot = selector.snapshotId().orElseGet(() -> read(view -> selector.tagName().isPresent()
        ? tagged(view, selector.tagName().get()) : asOf(view, selector.asOfTime().orElseThrow())).id());
    return pin(snapshot, owner, ttl);
  }

  /** A reader of {@code snapshot} that fails rather than return rows cleanup may have cut short. */
  private SnapshotReader reader(SnapshotKeys keys) {
    SnapshotId snapshot = keys.id();
    return new FixedSnapshotReader(ops.data(), keys, new CleanedCheck(ops.locks(), ops.connection(), id, snapshot,
        tx != null ? CleanedCheck.IN_TRANSACTION : CleanedCheck.NO_TRANSACTION));
  }

  /** The record of {@code snapshot} if a reader may read it (COMMITTED or EXPIRED). */
  private SnapshotInfo readable(MetadataView view, SnapshotId snapshot) {
    SnapshotInfo s = record(view, snapshot);
    if (!s.state().isReadable()) {
      throw new SnapshotNotAvailableException(id, snapshot, s.state());
    }
    return s;
  }

  private SnapshotInfo record(MetadataView view, SnapshotId snapshot) {
    return view.snapshot(snapshot).orElseThrow(() -> view.pastHorizon(snapshot)
        ? new HistoryHorizonException(id, "snapshot " + snapshot)
        : new SnapshotNotAvailableException(id, snapshot, null));
  }

  private SnapshotNotAvailableException nothingPublished() {
    return new SnapshotNotAvailableException(id, "dataset " + id + " has no published snapshot yet");
  }

  private SnapshotId currentId() {
    return read(MetadataView::current).orElseThrow(this::nothingPublished);
  }

  /**
   * Inside a transaction, reads the metadata it sees; outside, the latest (as of the metadata
   * read reuse window of {@link SnapshotDatasets#withMetadataReadReuse}, if one is set).
   */
  <T> T read(Function<MetadataView, T> reader) {
    return txView != null ? reader.apply(txView) : ops.store().readRecent(reader);
  }

  /** The record of {@code snapshot}, which the history horizon keeps. */
  SnapshotInfo snapshot(SnapshotId snapshot) {
    return read(view -> record(view, snapshot));
  }

  /** The committed snapshot recorded for a source key, if any. */
  Optional<SnapshotInfo> snapshotForSource(String sourceKey) {
    return read(view -> view.snapshotForSource(sourceKey).flatMap(view::snapshot)
        .filter(i -> i.state() == SnapshotState.COMMITTED));
  }

  // ---- pins ----

  ReaderPin pin(SnapshotId snapshot, String owner, Duration ttl) {
    checkNotNull(snapshot, "snapshot id must not be null");
    checkArgument(owner != null && !owner.isBlank(), "pin owner must not be empty");
    read(view -> readable(view, snapshot));
    ReaderPin pin = new ReaderPin(ops.locks(), id, ops.clock(), snapshot, owner, ttl, ops.metrics().pinsHeld());
    // pin first, then check again: an expiry and cleanup between the first check and the pin
    // row would otherwise go unnoticed; after the pin row exists, cleanup leaves the rows alone
    try {
      ops.store().read(view -> readable(view, snapshot));
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
    return pin;
  }

  boolean isCleaned(SnapshotId snapshot) {
    checkNotNull(snapshot, "snapshot id must not be null");
    // a record past the horizon was deleted only after its snapshot had been cleaned
    return CleanedCheck.cleaned(ops.locks(), ops.connection(), id, snapshot) || read(view -> view.snapshot(snapshot)
        .map(s -> s.cleanedAt().isPresent()).orElseGet(() -> view.pastHorizon(snapshot)));
  }

  /**
   * Resolves the current snapshot, pins it, and reads the current pointer again; if a publish
   * landed in between, releases that pin and tries again, {@link #PIN_CURRENT_ATTEMPTS} times.
   */
  ReaderPin pinCurrent(String owner, Duration ttl) {
    checkArgument(owner != null && !owner.isBlank(), "pin owner must not be empty");
    SnapshotId current = currentId();
    for (int attempt = 1; attempt <= PIN_CURRENT_ATTEMPTS; attempt++) {
      ReaderPin pin = new ReaderPin(ops.locks(), id, ops.clock(), current, owner, ttl, ops.metrics().pinsHeld());
      SnapshotId now;
      try {
        now = currentId();
      } catch (RuntimeException e) {
        pin.close();
        throw e;
      }
      if (now.equals(current)) {
        return pin; // current while pinned: no cleanup can take it from here on
      }
      pin.close();
      current = now;
    }
    throw new SnapshotNotAvailableException(id, "the current snapshot of " + id + " changed on each of "
        + PIN_CURRENT_ATTEMPTS + " attempts to pin it (last " + current + "); publishes land faster than a pin"
        + " is taken: retry, or pin an explicit snapshot id");
  }

  // ---- status ----

  /** See {@link SnapshotDataset#status()}. */
  DatasetStatus status() {
    List<LockStatus> lockRows = ops.locks().statusAll();
    return read(view -> {
      Instant now = ops.clock().instant();
      List<DatasetStatus.Build> builds = new ArrayList<>();
      for (SnapshotInfo s : view.building()) {
        String lock = NewSnapshot.lockName(s.sourceKey().orElse(null));
        boolean held = lockRows.stream().anyMatch(l -> l.lockName().equals(lock) && l.isHeld(now)
            && l.lease().get().token() == s.fencingToken());
        builds.add(new DatasetStatus.Build(s, lock, view.transaction().isInProgress(s.id().value()), held));
      }
      List<DatasetStatus.Delivery> deliveries = new ArrayList<>();
      SortedMap<String, Long> positions = view.deliveredPositions();
      long lastEvent = view.lastEventSequence();
      long oldestEvent = positions.isEmpty() ? 0 : view.oldestEventSequence();
      positions.forEach((name, at) -> deliveries.add(new DatasetStatus.Delivery(name, at, lastEvent, oldestEvent)));
      return new DatasetStatus(id, now, view.currentInfo(), builds, view.staged(), lockRows, Cleanup.backlog(view, ops.locks()),
          lastEvent, deliveries);
    });
  }
}
