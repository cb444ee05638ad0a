package io.snapds.dataset.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.snapds.dataset.CorruptMetadataException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.RetentionPolicy;
import io.snapds.dataset.lock.LockSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PropertiesCodecTest {
  private static final DatasetId ID = DatasetId.of("ns", "ds");

  @Test
  void roundTrips() {
    DatasetProperties p = DatasetProperties.builder().families("a", "b")
        .retention(RetentionPolicy.retainLast(5).withMaxAge(Duration.ofHours(6)))
        .lockSettings(LockSettings.builder().leaseDuration(Duration.ofSeconds(9)).maxWaiters(3).build())
        .maxBuildTime(Duration.ofMinutes(7)).commitRetries(4).build();
    assertEquals(p, PropertiesCodec.decode(ID, PropertiesCodec.encode(p)));
  }

  @Test
  void firstSplitPointsOfAnyBytesRoundTrip() {
    DatasetProperties p = DatasetProperties.builder()
        .firstSplitPoints(java.util.List.of(new byte[] {0, ','}, "k050000".getBytes(), new byte[] {(byte) 0xff}))
        .build();
    Map<String, String> stored = PropertiesCodec.encode(p);
    assertEquals("002c,6b303530303030,ff", stored.get("data.presplit.first.points"));
    assertEquals(p, PropertiesCodec.decode(ID, stored));
    // none: no property at all, so a dataset created before it reads the same
    assertEquals(false, PropertiesCodec.encode(DatasetProperties.defaults()).containsKey("data.presplit.first.points"));

    stored.put("data.presplit.first.points", "6b30,zz");
    CorruptMetadataException e = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, stored));
    assertEquals("corrupt metadata in dataset ns:ds, row 'p': invalid properties: data.presplit.first.points: "
        + "'zz' is not hex", e.getMessage());
  }

  @Test
  void namesTheBadPropertyOfACorruptRow() {
    Map<String, String> m = new LinkedHashMap<>(PropertiesCodec.encode(DatasetProperties.defaults()));
    m.put("retention.last", "lots");
    CorruptMetadataException e = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, m));
    assertEquals("corrupt metadata in dataset ns:ds, row 'p': property 'retention.last' is not a number: 'lots'",
        e.getMessage());

    m.put("retention.last", "0");
    e = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, m));
    assertEquals("corrupt metadata in dataset ns:ds, row 'p': invalid properties: retainLast must be >= 1, got 0",
        e.getMessage());

    m.remove("lock.lease");
    m.put("retention.last", "2");
    e = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, m));
    assertEquals("corrupt metadata in dataset ns:ds, row 'p': missing property 'lock.lease'", e.getMessage());
  }

  @Test
  void regionMergeIsOnByDefaultAndATypoIsNamed() {
    Map<String, String> m = new LinkedHashMap<>(PropertiesCodec.encode(DatasetProperties.defaults()));
    assertEquals("true", m.get("data.merge"));
    m.remove("data.merge"); // a dataset created before the property existed
    assertEquals(true, PropertiesCodec.decode(ID, m).mergeEmptyRegions());
    DatasetProperties off = DatasetProperties.builder().mergeEmptyRegions(false).build();
    assertEquals(off, PropertiesCodec.decode(ID, PropertiesCodec.encode(off)));

    m.put("data.merge", "yes");
    CorruptMetadataException e = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, m));
    assertEquals("corrupt metadata in dataset ns:ds, row 'p': property 'data.merge' is not true or false: 'yes'",
        e.getMessage());
  }

  @Test
  void refusesANewerFormat() {
    Map<String, String> m = new LinkedHashMap<>(PropertiesCodec.encode(DatasetProperties.defaults()));
    m.put("format.version", "99");
    CorruptMetadataException e = assertThrows(CorruptMetadataException.class, () -> PropertiesCodec.decode(ID, m));
    assertEquals("corrupt metadata in dataset ns:ds, row 'p': format.version 99 is newer than this library "
        + "understands (4): upgrade the library", e.getMessage());
  }
}
