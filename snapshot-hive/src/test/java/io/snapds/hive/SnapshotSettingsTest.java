package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.read.SnapshotSelector;
import java.time.Instant;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Which snapshot a table's properties and the session's settings select. */
class SnapshotSettingsTest {
  private static Properties table(String key, String value) {
    Properties p = new Properties();
    if (key != null) {
      p.setProperty(key, value);
    }
    return p;
  }

  private static Configuration session(String key, String value) {
    Configuration c = new Configuration(false);
    if (key != null) {
      c.set(key, value);
    }
    return c;
  }

  @Test
  void tablePropertyBeforeSessionSettingBeforeCurrent() {
    assertEquals(SnapshotSelector.snapshot(SnapshotId.of(5)), SnapshotSettings.fromSettings(
        table(HiveTableProperties.SNAPSHOT_ID, "5"), session(HiveTableProperties.SNAPSHOT_ID, "7")));
    assertEquals(SnapshotSelector.snapshot(SnapshotId.of(7)), SnapshotSettings.fromSettings(
        table(null, null), session(HiveTableProperties.SNAPSHOT_ID, "7")));
    assertEquals(SnapshotSelector.current(), SnapshotSettings.fromSettings(table(null, null), session(null, null)));
  }

  @Test
  void aTagAtEitherLevel() {
    assertEquals(SnapshotSelector.tag("Release"), SnapshotSettings.fromSettings(
        table(HiveTableProperties.SNAPSHOT_TAG, "Release"), session(HiveTableProperties.SNAPSHOT_ID, "7")));
    assertEquals(SnapshotSelector.tag("nightly"), SnapshotSettings.fromSettings(
        table(null, null), session(HiveTableProperties.SNAPSHOT_TAG, "nightly")));
    assertEquals(SnapshotSelector.tag("nightly"), SnapshotSettings.fromRef("default.t", "tag_nightly"));
    IllegalArgumentException branch = assertThrows(IllegalArgumentException.class,
        () -> SnapshotSettings.fromRef("default.t", "branch_dev"));
    assertTrue(branch.getMessage().startsWith("table reference default.t.branch_dev: a snapshot dataset's table has "
        + "tags, read one as default.t.tag_<name>"), branch.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SnapshotSettings.fromRef("default.t", "tag_"));
  }

  @Test
  void aTagAndAnIdAtOneLevelIsAnError() {
    Properties p = table(HiveTableProperties.SNAPSHOT_ID, "5");
    p.setProperty(HiveTableProperties.SNAPSHOT_TAG, "nightly");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SnapshotSettings.fromSettings(p, session(null, null)));
    assertEquals("table property snapds.snapshot.id=5 and snapds.snapshot.tag=nightly are both set; set only one",
        e.getMessage());
  }

  @Test
  void timesInThreeForms() {
    Instant t = Instant.parse("2026-11-30T08:00:00Z");
    assertEquals(t, SnapshotSettings.parseTime("x", Long.toString(t.toEpochMilli())));
    assertEquals(t, SnapshotSettings.parseTime("x", "2026-11-30T08:00:00Z"));
    assertEquals(t, SnapshotSettings.parseTime("x", "2026-11-30 08:00:00"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SnapshotSettings.parseTime("setting snapds.snapshot.asof", "yesterday"));
    assertTrue(e.getMessage().startsWith("setting snapds.snapshot.asof 'yesterday' is not a time"), e.getMessage());
  }

  @Test
  void bothAnIdAndATimeIsAnError() {
    Configuration c = session(HiveTableProperties.SNAPSHOT_ID, "5");
    c.set(HiveTableProperties.SNAPSHOT_AS_OF, "2026-11-30T08:00:00Z");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SnapshotSettings.fromSettings(table(null, null), c));
    assertEquals("setting snapds.snapshot.id=5 and snapds.snapshot.asof=2026-11-30T08:00:00Z are both set; set only one",
        e.getMessage());
  }

  @Test
  void stagingIsTheTablePropertyElseTheSessionSettingElseOff() {
    assertEquals(false, SnapshotSettings.stage(table(null, null)::getProperty, session(null, null)));
    assertEquals(true, SnapshotSettings.stage(table(null, null)::getProperty,
        session(HiveTableProperties.WRITE_STAGE, "true")));
    assertEquals(false, SnapshotSettings.stage(table(HiveTableProperties.WRITE_STAGE, "false")::getProperty,
        session(HiveTableProperties.WRITE_STAGE, "true")));
    assertEquals(true, SnapshotSettings.stage(table(HiveTableProperties.WRITE_STAGE, " TRUE ")::getProperty,
        session(HiveTableProperties.WRITE_STAGE, "false")));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SnapshotSettings.stage(
        table(null, null)::getProperty, session(HiveTableProperties.WRITE_STAGE, "1")));
    assertEquals("setting snapds.write.stage must be true or false, got '1'", e.getMessage());
  }
}
