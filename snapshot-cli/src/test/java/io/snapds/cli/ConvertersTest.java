package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConvertersTest {
  /** The options read durations as the core does (DurationsParseTest has the forms); the converter only hands over. */
  @Test
  void durationsAreTheCoresReading() throws Exception {
    assertEquals(Duration.ofMillis(500), new Converters.DurationConverter().convert("500ms"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Converters.DurationConverter().convert("soon"));
    assertEquals("invalid duration 'soon': use 90s, 15m, 12h, 7d or PT1H", e.getMessage());
  }

  @Test
  void times() {
    Instant now = Instant.parse("2026-11-30T12:00:00Z");
    assertEquals(Instant.parse("2026-11-30T10:15:30Z"), Converters.time("2026-11-30T10:15:30Z", now));
    assertEquals(Instant.parse("2026-11-30T10:00:00Z"), Converters.time("2h", now));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Converters.time("yesterday", now));
    assertEquals("invalid time 'yesterday': use 2026-11-30T10:15:30Z, 2026-11-30T10:15 (local time), "
        + "2026-11-30, or a duration ago such as 2h", e.getMessage());
  }
}
