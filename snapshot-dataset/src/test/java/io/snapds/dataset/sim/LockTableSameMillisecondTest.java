package io.snapds.dataset.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.lock.LockLease;
import io.snapds.dataset.lock.LockTable;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A lock row removed and granted again within one millisecond of the region server's clock. HBase
 * hides every version at or below a delete marker's timestamp, also versions written after it,
 * unless the family has NEW_VERSION_BEHAVIOR: the grant then succeeded (its check saw no row) but
 * stayed invisible, so the next writer was granted the same lock with the same token.
 */
class LockTableSameMillisecondTest {
  @Test
  void aLockRemovedAndGrantedAgainInOneMillisecondHasOneHolder() {
    SimHBase hbase = new SimHBase();
    SimConnection connection = new SimConnection(hbase);
    DatasetId dataset = DatasetId.of("sim", "locks");
    new CompositeDatasetAdmin(dataset, connection).create(DatasetProperties.builder().build());
    LockTable locks = new LockTable(connection, dataset.lockTable(), Clock.systemUTC());
    LockLease first = locks.tryAcquire("source-a", "writer-1", Duration.ofMinutes(5)).orElseThrow();
    assertTrue(locks.release(first));

    hbase.holdTheMillisecond(true); // the removal, then two writers asking, all in one millisecond
    assertTrue(locks.removeIfIdle("source-a"), "a released lock nobody waits for is removed");
    Optional<LockLease> second = locks.tryAcquire("source-a", "writer-2", Duration.ofMinutes(5));
    Optional<LockLease> third = locks.tryAcquire("source-a", "writer-3", Duration.ofMinutes(5));

    assertTrue(second.isPresent(), "the lock was free");
    assertEquals(Optional.empty(), third.map(LockLease::owner), "writer-2 holds the lock, token "
        + second.get().token());
    assertEquals(Optional.of("writer-2"), locks.status("source-a").lease().map(LockLease::owner));
  }
}
