package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.snapds.dataset.lock.LockSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValuesTest {
  private static void assertMessage(String expected, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertEquals(expected, e.getMessage());
  }

  @Test
  void datasetIdsAreValidatedAndNamed() {
    assertEquals("shop:prices", DatasetId.of("shop", "prices").toString());
    assertEquals("shop:prices.data", DatasetId.parse("shop:prices").dataTable().getNameAsString());
    assertEquals(DatasetId.of("default", "p"), DatasetId.parse("p"));
    assertMessage("invalid namespace 'bad ns': use 1-64 letters, digits or '_'", () -> DatasetId.of("bad ns", "x"));
    assertMessage("invalid dataset name 'a:b': use 1-128 letters, digits, '_' or '-', not starting with '-'",
        () -> DatasetId.of("ns", "a:b"));
    assertMessage("invalid dataset name '': use 1-128 letters, digits, '_' or '-', not starting with '-'",
        () -> DatasetId.of("ns", ""));
    assertMessage("invalid dataset name '-x': use 1-128 letters, digits, '_' or '-', not starting with '-'",
        () -> DatasetId.of("ns", "-x"));
  }

  @Test
  void snapshotIdsArePositive() {
    assertEquals(42L, SnapshotId.parse("42").value());
    assertEquals(SnapshotId.of(7), SnapshotId.fromBytes(SnapshotId.of(7).toBytes()));
    assertMessage("snapshot id must be > 0, got 0", () -> SnapshotId.of(0));
    assertMessage("invalid snapshot id 'abc': expected a positive number", () -> SnapshotId.parse("abc"));
  }

  @Test
  void retentionRejectsNonPositiveValues() {
    assertMessage("retainLast must be >= 1, got 0", () -> RetentionPolicy.retainLast(0));
    assertMessage("retainLast must be >= 1, got -3", () -> RetentionPolicy.retainLast(-3));
    assertMessage("maxAge must be > 0, got PT0S", () -> RetentionPolicy.retainLast(1).withMaxAge(Duration.ZERO));
    assertEquals(Duration.ofDays(2), RetentionPolicy.retainLast(2).withMaxAge(Duration.ofDays(2)).maxAge().orElseThrow());
  }

  @Test
  void lockSettingsRejectBadValues() {
    assertMessage("lease duration must be > 0, got PT0S",
        () -> LockSettings.builder().leaseDuration(Duration.ZERO).build());
    assertMessage("lease duration must be > 0, got PT-1S",
        () -> LockSettings.builder().leaseDuration(Duration.ofSeconds(-1)).build());
    assertMessage("max waiters must be >= 1, got 0", () -> LockSettings.builder().maxWaiters(0).build());
    assertMessage("heartbeat interval must be shorter than the lease (PT10S), got PT10S",
        () -> LockSettings.builder().leaseDuration(Duration.ofSeconds(10)).heartbeatInterval(Duration.ofSeconds(10)).build());
    assertMessage("acquire timeout must be >= 0, got PT-1S",
        () -> LockSettings.builder().acquireTimeout(Duration.ofSeconds(-1)).build());
    assertEquals(Duration.ofSeconds(20), LockSettings.DEFAULT.heartbeatInterval());
  }

  @Test
  void propertiesRejectBadFamiliesAndTimes() {
    assertMessage("invalid column family 'a:b': use 1-64 letters, digits, '_', '.' or '-'",
        () -> DatasetProperties.builder().families("a:b").build());
    assertMessage("a dataset needs at least one column family",
        () -> DatasetProperties.builder().families(java.util.List.of()).build());
    assertMessage("duplicate column family in [d, d]", () -> DatasetProperties.builder().families("d", "d").build());
    assertMessage("max build time must be >= 1s, got PT0.5S",
        () -> DatasetProperties.builder().maxBuildTime(Duration.ofMillis(500)).build());
  }

  @Test
  void rowScanValidatesRanges() {
    assertMessage("startKey b is after stopKey a",
        () -> RowScan.all().range("b".getBytes(), "a".getBytes()));
    assertMessage("limit must be >= 0, got -1", () -> RowScan.all().limit(-1));
    RowScan p = RowScan.all().prefix(new byte[] {1, (byte) 0xFF});
    assertEquals(2, p.stopKey().orElseThrow()[0]);
    assertEquals(1, p.stopKey().orElseThrow().length);
  }
}
