package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.store.InMemoryMetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two retry budgets of metadata commits, against the in-memory store (which retries lost
 * races within the same budgets as the HBase store): an operation gets the dataset's
 * {@code commit.retries}, a deferrable step a short fixed budget.
 */
class CommitBudgetTest {
  private static final DatasetId DS = DatasetId.of("t", "budget");
  private final MetadataFixture fixture = new MetadataFixture(DS); // default properties
  private final InMemoryMetadataStore store = fixture.store;

  private SnapshotInfo stored(SnapshotId id) {
    return store.read(view -> view.snapshot(id)).orElseThrow();
  }

  private Publication.Published publish(SnapshotId id, String runId, int retainLast) {
    WriterOptions options = new WriterOptions("w", runId, null, NewSnapshot.lockName(null), 1024);
    return store.update("publish", new Publication(DS, id, 1, options, 1, 1, Map.of(),
        RetentionPolicy.retainLast(retainLast))::apply);
  }

  @Test
  void theDefaultBudgetOutlastsMoreThanTenLostRaces() {
    assertTrue(DatasetProperties.defaults().commitRetries() > 10, "default commit.retries");
    SnapshotId id = fixture.begin("r1", null, 1);
    store.loseRaces(20);
    long before = store.attempts();
    publish(id, "r1", 100);
    assertEquals(0, store.racesLeftToLose());
    assertEquals(21, store.attempts() - before, "20 lost, the 21st committed");
    assertEquals(SnapshotState.COMMITTED, stored(id).state());
    assertEquals(id, store.read(MetadataView::current).orElseThrow());
  }

  @Test
  void anOperationThatLosesEveryRaceOfItsBudgetCommitsNothing() {
    SnapshotId id = fixture.begin("r1", null, 1);
    int retries = DatasetProperties.defaults().commitRetries();
    store.loseRaces(retries + 5);
    CommitConflictException e = assertThrows(CommitConflictException.class, () -> publish(id, "r1", 100));
    assertEquals("publish on dataset " + DS + " conflicted with a concurrent change", e.getMessage());
    assertEquals(4, store.racesLeftToLose(), "1 + commit.retries attempts");
    assertEquals(SnapshotState.BUILDING, stored(id).state());
  }

  @Test
  void aDeferrableStepGivesUpAfterItsShortBudgetAndTheNextCleanupDoesItsWork() {
    SnapshotId first = fixture.publish("r1");
    SnapshotId second = fixture.begin("r2", null, 1);
    Publication.Published published = publish(second, "r2", 1);
    assertEquals(List.of(first), published.expired().stream().map(SnapshotInfo::id).toList());
    assertEquals(0, stored(first).cleanupFence(), "the fences follow the publish, in a later transaction");

    store.loseRaces(1_000); // a publishing loop that wins every race
    long before = store.attempts();
    Cleanup.fenceAfter(fixture.ops(), published.expired()); // gives up to the next cleanup, does not throw
    assertEquals(11, store.attempts() - before, "the short budget, not 1 + commit.retries");
    assertEquals(0, stored(first).cleanupFence(), "nothing committed");

    store.loseRaces(0);
    List<SnapshotId> dead = store.updateDeferrable("abort dead writers", Cleanup::abortDeadWriters);
    assertEquals(List.of(), dead);
    assertNotEquals(0, stored(first).cleanupFence(), "the next cleanup's first step fenced it");
  }

  @Test
  void aDeferrableStepNeverGetsMoreThanTheDatasetsBudget() {
    InMemoryMetadataStore strict = new InMemoryMetadataStore(DS, fixture.clock, 0);
    strict.loseRaces(5);
    assertThrows(CommitConflictException.class, () -> strict.updateDeferrable("write the CREATED event", view -> {
      view.announceCreated();
      return null;
    }));
    assertEquals(1, strict.attempts(), "commit.retries 0: one attempt");
    assertEquals(4, strict.racesLeftToLose());
  }
}
