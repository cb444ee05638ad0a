package io.snapds.cli;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;

/** Parsers of the values the commands take; each error names the bad value and the forms accepted. */
final class Converters {

  private Converters() {}

  static final class DatasetIdConverter implements ITypeConverter<DatasetId> {
    @Override
    public DatasetId convert(String value) {
      return DatasetId.parse(value);
    }
  }

  static final class SnapshotIdConverter implements ITypeConverter<SnapshotId> {
    @Override
    public SnapshotId convert(String value) {
      return SnapshotId.parse(value);
    }
  }

  /** {@code 90s}, {@code 15m}, {@code 12h}, {@code 7d}, {@code 500ms}, or ISO-8601 ({@code PT1H}). */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return duration(value);
    }
  }

  static Duration duration(String value) {
    return io.snapds.dataset.Durations.parse(value);
  }

  /**
   * A point in time: {@code 2026-11-30T10:15:30Z}, a local date-time or date in this machine's
   * time zone ({@code 2026-11-30T10:15}, {@code 2026-11-30}), or a duration ago ({@code 2h}).
   */
  static final class TimeConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      return time(value, Instant.now());
    }
  }

  static Instant time(String value, Instant now) {
    String v = value.trim();
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException notInstant) {
      // try the other forms
    }
    try {
      return LocalDateTime.parse(v).atZone(ZoneId.systemDefault()).toInstant();
    } catch (DateTimeParseException notLocal) {
      // try the other forms
    }
    try {
      return LocalDate.parse(v).atStartOfDay(ZoneId.systemDefault()).toInstant();
    } catch (DateTimeParseException notDate) {
      // try the other forms
    }
    try {
      return now.minus(duration(v));
    } catch (IllegalArgumentException notDuration) {
      throw new IllegalArgumentException("invalid time '" + value + "': use 2026-11-30T10:15:30Z, "
          + "2026-11-30T10:15 (local time), 2026-11-30, or a duration ago such as 2h");
    }
  }
}
