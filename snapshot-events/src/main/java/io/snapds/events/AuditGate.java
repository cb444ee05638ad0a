package io.snapds.events;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetEvent;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.PublishMode;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.StagedBaseMovedException;
import io.snapds.events.AuditDecision.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quality gate of write, audit, publish: an {@link EventHandler} that, for each STAGED event,
 * runs data checks ({@link AuditCheck}, built-in ones in {@link AuditChecks}) on the staged
 * snapshot and then publishes it ({@link SnapshotDataset#publish}) when every check passed, or
 * discards it ({@link SnapshotDataset#discard}) when one failed. Other events are ignored.
 *
 * <pre>{@code
 * AuditGate gate = AuditGate.builder(datasets)
 *     .check("row count", AuditChecks.rowCountWithin(0.2))
 *     .check("no missing id", AuditChecks.noMissingValue("d", "id"))
 *     .check("reconciles", (ds, staged) -> mySourceCount() == staged.rowCount()
 *         ? CheckResult.pass("matches the source") : CheckResult.fail("source has " + mySourceCount()))
 *     .build();
 * new EventConsumer(datasets, "audit", gate).pollKafka(kafka, Duration.ofSeconds(1));
 * }</pre>
 *
 * <p><b>One decision per stage, however often its event comes.</b> The decision lives in the
 * snapshot's record, not in the gate: the gate first reads the record and, when the stage was
 * published or discarded already (an earlier delivery, a gate killed after its decision and
 * before the consumer recorded the event, or a person), returns that decision without running the
 * checks. Two deliveries that race both run the checks, and both try to decide; the metadata
 * transaction lets only the first of a publish and a discard take effect: a second publish
 * returns the published snapshot unchanged, a second discard changes nothing, a discard after a
 * publish and a publish after a discard are refused, and the gate reads the record again and
 * returns what the first one decided ({@link AuditDecision#decidedBefore()}). A gate killed
 * anywhere before its publish or discard committed leaves the stage STAGED, and the event offered
 * again decides it.
 *
 * <p><b>The base moved.</b> A stage whose checks passed but whose base (the snapshot current when
 * it was staged, which a row-count check compared with) is no longer current is discarded, with
 * that as the reason ({@link StagedBaseMovedException}); with
 * {@link Builder#replaceCurrent()} it is published over whatever is current instead.
 *
 * <p>Each decision is logged (INFO for a publish, WARN for a discard) with the checks' reasons,
 * returned by {@link #decide}, and counted ({@link #published()}, {@link #discarded()},
 * {@link #decidedBefore()}). A check that throws decides nothing: the consumer offers the event
 * again. The staged snapshot is pinned while the checks read it. Cost per STAGED event: two reads
 * of the snapshot's record, a pin, the checks, and one metadata commit; a redelivered event, one
 * record read.
 */
public final class AuditGate implements EventHandler {
  private static final Logger LOG = LoggerFactory.getLogger(AuditGate.class);
  private static final Duration PIN_TTL = Duration.ofMinutes(10);

  /**
   * Called after the checks and before the publish or discard, with what is about to be decided.
   * An exception ends the handling with nothing decided (the event is offered again). For a record
   * of intentions kept outside the dataset, and for tests that kill the gate at that point.
   */
  @FunctionalInterface
  public interface DecisionHook {
    void beforeDecision(DatasetId dataset, SnapshotId snapshot, Outcome intended, String reason) throws Exception;
  }

  private final SnapshotDatasets datasets;
  private final Map<String, AuditCheck> checks;
  private final boolean replaceCurrent;
  private final DecisionHook hook;
  private final String pinOwner;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong discarded = new AtomicLong();
  private final AtomicLong decidedBefore = new AtomicLong();

  private AuditGate(Builder b) {
    this.datasets = b.datasets;
    this.checks = Collections.unmodifiableMap(new LinkedHashMap<>(b.checks));
    this.replaceCurrent = b.replaceCurrent;
    this.hook = b.hook;
    this.pinOwner = b.pinOwner;
  }

  public static Builder builder(SnapshotDatasets datasets) {
    return new Builder(datasets);
  }

  /** Decides STAGED events ({@link #decide}); ignores every other event. */
  @Override
  public void handle(DatasetEvent event) throws Exception {
    if (event.type() == DatasetEvent.Type.STAGED) {
      decide(event.dataset(), event.snapshotId());
    }
  }

  /**
   * Publishes or discards the staged snapshot {@code snapshot} of {@code dataset} once its checks
   * ran, or returns the decision made before. Safe to call again and concurrently for the same
   * snapshot: every call returns the same outcome.
   *
   * @throws Exception from a check or the hook (nothing decided), or a storage error
   */
  public AuditDecision decide(DatasetId dataset, SnapshotId snapshot) throws Exception {
    checkNotNull(dataset, "dataset");
    checkNotNull(snapshot, "snapshot");
    try (SnapshotDataset ds = datasets.open(dataset)) {
      Optional<AuditDecision> before = decidedAlready(ds, snapshot, "found before the checks");
      if (before.isPresent()) {
        return before.get();
      }
      SnapshotInfo staged = ds.snapshot(snapshot);
      ReaderPin pin;
      try {
        pin = ds.pin(snapshot, pinOwner, PIN_TTL);
      } catch (SnapshotNotAvailableException decidedMeanwhile) {
        return decidedAlready(ds, snapshot, "found when pinning it").orElseThrow(() -> decidedMeanwhile);
      }
      List<String> passed = new ArrayList<>();
      List<String> failed = new ArrayList<>();
      try (pin) {
        for (Map.Entry<String, AuditCheck> c : checks.entrySet()) {
          CheckResult r = checkNotNull(c.getValue().check(ds, staged), "check '%s' returned null", c.getKey());
          (r.passed() ? passed : failed).add(c.getKey() + ": " + r.reason());
        }
      } catch (SnapshotNotAvailableException unreadable) { // discarded (or published and expired) meanwhile
        Optional<AuditDecision> meanwhile = decidedAlready(ds, snapshot, "when a check could not read it");
        if (meanwhile.isPresent()) {
          return meanwhile.get();
        }
        throw unreadable;
      }
      Outcome intended = failed.isEmpty() ? Outcome.PUBLISHED : Outcome.DISCARDED;
      String reason = failed.isEmpty() ? "passed " + String.join("; ", passed) : "failed " + String.join("; ", failed);
      hook.beforeDecision(dataset, snapshot, intended, reason);
      return intended == Outcome.PUBLISHED ? publish(ds, staged, reason) : discard(ds, snapshot, reason);
    }
  }

  private AuditDecision publish(SnapshotDataset ds, SnapshotInfo staged, String reason) {
    try {
      ds.publish(staged.id(), replaceCurrent ? PublishMode.REPLACE_CURRENT : PublishMode.BASE_UNCHANGED);
    } catch (StagedBaseMovedException moved) {
      return discard(ds, staged.id(), "checks passed, but its base moved: staged on "
          + moved.base().map(SnapshotId::toString).orElse("no snapshot") + ", current is "
          + moved.current().map(SnapshotId::toString).orElse("none") + " (" + reason + ")");
    } catch (SnapshotNotAvailableException refused) { // discarded meanwhile by a racing delivery or by hand
      return decidedAlready(ds, staged.id(), "its publish was refused").orElseThrow(() -> refused);
    }
    return decided(new AuditDecision(ds.id(), staged.id(), Outcome.PUBLISHED, reason, false));
  }

  private AuditDecision discard(SnapshotDataset ds, SnapshotId snapshot, String reason) {
    try {
      ds.discard(snapshot);
    } catch (SnapshotNotAvailableException refused) { // published meanwhile (a SnapshotStateException)
      return decidedAlready(ds, snapshot, "its discard was refused").orElseThrow(() -> refused);
    }
    return decided(new AuditDecision(ds.id(), snapshot, Outcome.DISCARDED, reason, false));
  }

  /** The decision recorded in the snapshot's record, if it is no longer STAGED. */
  private Optional<AuditDecision> decidedAlready(SnapshotDataset ds, SnapshotId snapshot, String when) {
    SnapshotInfo s;
    try {
      s = ds.snapshot(snapshot);
    } catch (SnapshotNotAvailableException gone) {
      return Optional.of(decided(new AuditDecision(ds.id(), snapshot, Outcome.NOT_AVAILABLE,
          "its record is gone: " + gone.getMessage(), true)));
    }
    Outcome outcome;
    if (s.committedAt().isPresent()) {
      outcome = Outcome.PUBLISHED;
    } else if (s.discarded()) {
      outcome = Outcome.DISCARDED;
    } else if (s.state() == SnapshotState.STAGED) {
      return Optional.empty();
    } else {
      outcome = Outcome.NOT_AVAILABLE;
    }
    return Optional.of(decided(new AuditDecision(ds.id(), snapshot, outcome, "decided before, " + when
        + " (state " + s.state() + ")", true)));
  }

  private AuditDecision decided(AuditDecision d) {
    if (d.decidedBefore()) {
      decidedBefore.incrementAndGet();
      LOG.info("audit of {}", d);
    } else if (d.outcome() == Outcome.PUBLISHED) {
      published.incrementAndGet();
      LOG.info("audit of {}", d);
    } else {
      discarded.incrementAndGet();
      LOG.warn("audit of {}", d);
    }
    return d;
  }

  /** How many stages this gate published (a publish that found the stage published already included). */
  public long published() {
    return published.get();
  }

  /** How many stages this gate discarded. */
  public long discarded() {
    return discarded.get();
  }

  /** How many times this gate found a stage decided already (a redelivery, a race it lost). */
  public long decidedBefore() {
    return decidedBefore.get();
  }

  @Override
  public String toString() {
    return "AuditGate" + checks.keySet();
  }

  /** Builds an {@link AuditGate}. */
  public static final class Builder {
    private final SnapshotDatasets datasets;
    private final Map<String, AuditCheck> checks = new LinkedHashMap<>();
    private boolean replaceCurrent;
    private DecisionHook hook = (dataset, snapshot, intended, reason) -> { };
    private String pinOwner = "audit-gate";

    private Builder(SnapshotDatasets datasets) {
      this.datasets = checkNotNull(datasets, "datasets");
    }

    /** Adds a check, run in the order added; {@code name} prefixes its reason. */
    public Builder check(String name, AuditCheck check) {
      checkArgument(name != null && !name.isBlank(), "check name must not be empty, got '%s'", name);
      checkArgument(!checks.containsKey(name), "a check named '%s' was added already", name);
      checks.put(name, checkNotNull(check, "check '%s' must not be null", name));
      return this;
    }

    /** Publishes a stage that passed over whatever is current ({@link PublishMode#REPLACE_CURRENT}), instead of discarding it when its base moved. */
    public Builder replaceCurrent() {
      this.replaceCurrent = true;
      return this;
    }

    /** See {@link DecisionHook}. */
    public Builder beforeDecision(DecisionHook hook) {
      this.hook = checkNotNull(hook, "hook");
      return this;
    }

    /** The owner its pins are recorded under (default {@code audit-gate}). */
    public Builder pinOwner(String owner) {
      checkArgument(owner != null && !owner.isBlank(), "pin owner must not be empty, got '%s'", owner);
      this.pinOwner = owner;
      return this;
    }

    public AuditGate build() {
      checkArgument(!checks.isEmpty(), "an audit gate needs at least one check");
      return new AuditGate(this);
    }
  }
}
