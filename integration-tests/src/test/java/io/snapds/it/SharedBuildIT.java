package io.snapds.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SharedBuildResult;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.lock.LockSettings;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 100 concurrent jobs over 10 source keys: exactly one build per key, everyone else reuses it,
 * and callers turned away by the waiter limit get in through the retry policy.
 */
@ExtendWith(MiniClusterExtension.class)
class SharedBuildIT {
  private static final int JOBS = 100;
  private static final int KEYS = 10;
  private static final int ROWS = 30;

  private static String sourceKey(int k) {
    return String.format("2022-11-22T%02d:00/%02d:00", 10 + k, 11 + k);
  }

  @Test
  void hundredJobsTenKeysTenBuilds() throws Exception {
    MiniCluster cluster = MiniCluster.get();
    // few waiters per key lock, so that some callers are turned away and must retry
    LockSettings lock = LockSettings.builder().maxWaiters(3).acquireTimeout(Duration.ofSeconds(60))
        .retryAttempts(30).retryBackoff(Duration.ofMillis(50), Duration.ofSeconds(1)).build();
    SnapshotDataset created = cluster.datasets().create(MiniCluster.uniqueDataset("shared"),
        DatasetProperties.builder().lockSettings(lock).retention(RetentionPolicy.retainLast(KEYS)).build());

    Map<String, AtomicInteger> builds = new ConcurrentHashMap<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(JOBS);
    List<Future<SharedBuildResult>> jobs = new ArrayList<>();
    for (int j = 0; j < JOBS; j++) {
      String key = sourceKey(j % KEYS);
      jobs.add(pool.submit(() -> {
        SnapshotDataset ds = cluster.datasets().open(created.id()); // each job its own client
        start.await();
        return ds.sharedBuild(key, writer -> {
          builds.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
          for (int i = 0; i < ROWS; i++) {
            writer.put(Fixtures.key(i), "d", "v", Bytes.toBytes(key + "#" + i));
          }
        });
      }));
    }
    start.countDown();
    Map<String, SnapshotId> idPerKey = new HashMap<>();
    int built = 0;
    for (int j = 0; j < JOBS; j++) {
      String key = sourceKey(j % KEYS);
      SharedBuildResult r = jobs.get(j).get();
      built += r.built() ? 1 : 0;
      SnapshotId previous = idPerKey.putIfAbsent(key, r.snapshotId());
      assertEquals(previous == null ? r.snapshotId() : previous, r.snapshotId(), "every caller of " + key + " gets one snapshot");
      assertEquals(key, r.snapshot().sourceKey().orElseThrow());
      // each caller reads its key's snapshot by id
      try (RowScanner rows = created.readSnapshot(r.snapshotId()).scan(RowScan.all())) {
        int n = 0;
        for (SnapshotRow row : rows) {
          assertEquals(key + "#" + n, Bytes.toString(row.value("d", "v")));
          n++;
        }
        assertEquals(ROWS, n);
      }
    }
    pool.shutdown();
    assertEquals(KEYS, built, "exactly one build per key");
    assertEquals(KEYS, builds.size());
    builds.forEach((key, n) -> assertEquals(1, n.get(), "builder calls for " + key));
    assertEquals(KEYS, new HashSet<>(idPerKey.values()).size());
    assertEquals(KEYS, created.retainedSnapshots().size());
    SharedBuildResult later = created.sharedBuild(sourceKey(3), w -> {
      throw new AssertionError("a committed key is never rebuilt");
    });
    assertEquals(idPerKey.get(sourceKey(3)), later.snapshotId());
    assertTrue(!later.built());
  }
}
