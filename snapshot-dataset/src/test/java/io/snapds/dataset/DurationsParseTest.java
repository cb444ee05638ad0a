package io.snapds.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one reading of durations users write, shared by the command line and the CDAP plugins. */
class DurationsParseTest {
  @Test
  void aNumberAndAUnitOrIso8601() {
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
    assertEquals(Duration.ofSeconds(90), Durations.parse("90s"));
    assertEquals(Duration.ofMinutes(15), Durations.parse(" 15 m "));
    assertEquals(Duration.ofHours(12), Durations.parse("12H"));
    assertEquals(Duration.ofDays(7), Durations.parse("7d"));
    assertEquals(Duration.ofHours(1), Durations.parse("PT1H"));
    assertEquals(Duration.ofDays(7), Durations.parse("p7d"));
  }

  @Test
  void anythingElseIsRefusedNamingTheText() {
    for (String bad : new String[] {"soon", "", "7w", "-5s", "1234567890123s", "5 s ago"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad), bad);
      assertEquals("invalid duration '" + bad + "': use 90s, 15m, 12h, 7d or PT1H", e.getMessage());
    }
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> Durations.parse(null));
    assertEquals("invalid duration 'null': use 90s, 15m, 12h, 7d or PT1H", none.getMessage());
  }
}
