package io.snapds.hive;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A range of user row keys, {@code [start, stop)}; a null end is unbounded. Immutable.
 */
public final class KeyRange {
  static final KeyRange ALL = new KeyRange(null, null);

  private final byte[] start;
  private final byte[] stop;

  private KeyRange(byte[] start, byte[] stop) {
    this.start = start;
    this.stop = stop;
  }

  /** @throws IllegalArgumentException if {@code start} is after {@code stop} */
  public static KeyRange of(byte[] start, byte[] stop) {
    checkArgument(start == null || stop == null || Bytes.compareTo(start, stop) <= 0,
        "range start %s is after its stop %s", Bytes.toStringBinary(start), Bytes.toStringBinary(stop));
    return new KeyRange(start == null ? null : start.clone(), stop == null ? null : stop.clone());
  }

  /** Just {@code key}. */
  public static KeyRange point(byte[] key) {
    return new KeyRange(key.clone(), successor(key));
  }

  /** The first key after {@code key} in byte order: {@code key + 0x00}. */
  static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  /**
   * The first key that does not start with {@code prefix}: the prefix with its last byte below
   * 0xFF incremented and what follows dropped; null (unbounded) when every byte is 0xFF.
   */
  static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  /** Inclusive start, or null. */
  public byte[] start() {
    return start == null ? null : start.clone();
  }

  /** Exclusive stop, or null. */
  public byte[] stop() {
    return stop == null ? null : stop.clone();
  }

  public boolean isEmpty() {
    return start != null && stop != null && Bytes.compareTo(start, stop) >= 0;
  }

  public boolean contains(byte[] key) {
    return (start == null || Bytes.compareTo(key, start) >= 0) && (stop == null || Bytes.compareTo(key, stop) < 0);
  }

  /** The keys in both; may be {@linkplain #isEmpty() empty}. */
  public KeyRange intersect(KeyRange other) {
    byte[] s = start == null ? other.start : other.start == null ? start
        : Bytes.compareTo(start, other.start) >= 0 ? start : other.start;
    byte[] e = stop == null ? other.stop : other.stop == null ? stop
        : Bytes.compareTo(stop, other.stop) <= 0 ? stop : other.stop;
    return new KeyRange(s, e);
  }

  /** Keys in any of {@code a} that are also in any of {@code b}, sorted and merged. */
  static List<KeyRange> intersect(List<KeyRange> a, List<KeyRange> b) {
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange x : a) {
      for (KeyRange y : b) {
        KeyRange both = x.intersect(y);
        if (!both.isEmpty()) {
          out.add(both);
        }
      }
    }
    return merge(out);
  }

  /** Sorts ranges by start and merges the ones that overlap or touch. */
  static List<KeyRange> merge(List<KeyRange> ranges) {
    List<KeyRange> sorted = new ArrayList<>(ranges);
    sorted.removeIf(KeyRange::isEmpty);
    sorted.sort(Comparator.comparing(r -> r.start, Comparator.nullsFirst(Bytes.BYTES_COMPARATOR)));
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange r : sorted) {
      if (!out.isEmpty()) {
        KeyRange last = out.get(out.size() - 1);
        if (last.stop == null || r.start == null || Bytes.compareTo(r.start, last.stop) <= 0) {
          byte[] stop = last.stop == null || r.stop == null ? null
              : Bytes.compareTo(last.stop, r.stop) >= 0 ? last.stop : r.stop;
          out.set(out.size() - 1, new KeyRange(last.start, stop));
          continue;
        }
      }
      out.add(r);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && Arrays.equals(start, r.start) && Arrays.equals(stop, r.stop);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(start), Arrays.hashCode(stop));
  }

  @Override
  public String toString() {
    return "[" + (start == null ? "-inf" : Bytes.toStringBinary(start)) + ", "
        + (stop == null ? "+inf" : Bytes.toStringBinary(stop)) + ")";
  }
}
