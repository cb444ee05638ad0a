package io.snapds.cli.output;

import io.snapds.dataset.SnapshotInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** How values are written for people: times in UTC to the second, sizes in B/KiB/MiB/GiB. */
public final class Formats {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
      .withZone(ZoneOffset.UTC);

  private Formats() {}

  public static String time(Instant t) {
    return TIME.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  public static String time(Optional<Instant> t) {
    return t.map(Formats::time).orElse("-");
  }

  public static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format("%.1f %s", v, units[u]);
  }

  public static String tags(SnapshotInfo s) {
    return s.tags().isEmpty() ? "-" : String.join(",", s.tags());
  }

  public static String orDash(Optional<String> s) {
    return s.orElse("-");
  }
}
