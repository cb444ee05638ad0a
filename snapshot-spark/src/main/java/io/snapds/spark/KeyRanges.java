package io.snapds.spark;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.Schema;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * The user key ranges a query's filters allow, from its predicates on the first key field: =, IN,
 * &lt;, &lt;=, &gt;, &gt;= and (for a string field) StartsWith. The key encoding is
 * order-preserving and the first field's encoding is a prefix of the key ({@code KeyCodec}), so
 * each predicate is one or more byte ranges; the ranges of the filters (which Spark ANDs) are
 * intersected. Float and double keys are not pushed down (the key order puts -0.0 before 0.0,
 * which Spark's = holds equal), nor are predicates on later key fields or other columns, nor ORs:
 * Spark evaluates those on the rows read, so a predicate left out only reads more rows; the
 * pushed ones a range holds exactly it does not evaluate again ({@link #postScan}). Immutable.
 */
final class KeyRanges {
  /** {@code [start, stop)} of user keys; null is unbounded. */
  record Range(byte[] start, byte[] stop) {
    static final Range ALL = new Range(null, null);

    boolean isEmpty() {
      return start != null && stop != null && Bytes.compareTo(start, stop) >= 0;
    }

    Range intersect(Range o) {
      byte[] s = start == null ? o.start : o.start == null ? start : Bytes.compareTo(start, o.start) >= 0 ? start : o.start;
      byte[] e = stop == null ? o.stop : o.stop == null ? stop : Bytes.compareTo(stop, o.stop) <= 0 ? stop : o.stop;
      return new Range(s, e);
    }

    RowScan toRowScan() {
      return RowScan.all().range(start, stop);
    }

    @Override
    public String toString() {
      return "[" + (start == null ? "-inf" : Bytes.toStringBinary(start)) + ", "
          + (stop == null ? "+inf" : Bytes.toStringBinary(stop)) + ")";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Range r && Arrays.equals(start, r.start) && Arrays.equals(stop, r.stop);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(start) + Arrays.hashCode(stop);
    }
  }

  private final List<Range> ranges;
  private final List<Filter> pushed;

  private KeyRanges(List<Range> ranges, List<Filter> pushed) {
    this.ranges = ranges;
    this.pushed = pushed;
  }

  static KeyRanges all() {
    return new KeyRanges(List.of(Range.ALL), List.of());
  }

  /** The ranges, sorted and disjoint; empty when the filters allow no key; {@code [ALL]} when they do not narrow it. */
  List<Range> ranges() {
    return ranges;
  }

  /** The filters the ranges come from. */
  List<Filter> pushed() {
    return pushed;
  }

  /**
   * Of {@code filters}, those Spark must still evaluate on the rows read: all but the pushed ones
   * the ranges hold exactly, and {@code IS NOT NULL} on a key field (a key field is never null).
   * A pushed =, IN, &lt;, &lt;=, &gt; or &gt;= on the first key field is exact: each field's key
   * encoding is order-preserving and prefix-free ({@code KeyCodec}), so a row is in the range iff
   * its first field satisfies the predicate. A prefix (StartsWith) stays with Spark.
   */
  List<Filter> postScan(Schema schema, Filter[] filters) {
    List<Filter> out = new ArrayList<>();
    for (Filter f : filters) {
      boolean exact = pushed.contains(f) && (f instanceof EqualTo || f instanceof In || f instanceof GreaterThan
          || f instanceof GreaterThanOrEqual || f instanceof LessThan || f instanceof LessThanOrEqual);
      boolean keyNotNull = f instanceof IsNotNull n
          && schema.keyFields().stream().anyMatch(k -> k.name().equals(n.attribute()));
      if (!exact && !keyNotNull) {
        out.add(f);
      }
    }
    return out;
  }

  static KeyRanges of(Schema schema, Filter[] filters) {
    Field key = schema.keyFields().get(0);
    KeyCodec codec = new KeyCodec(schema);
    List<Range> current = List.of(Range.ALL);
    List<Filter> pushed = new ArrayList<>();
    for (Filter f : filters) {
      List<Range> allowed = ranges(key, codec, f);
      if (allowed == null) {
        continue; // left to Spark
      }
      pushed.add(f);
      List<Range> next = new ArrayList<>();
      for (Range a : current) {
        for (Range b : allowed) {
          Range r = a.intersect(b);
          if (!r.isEmpty()) {
            next.add(r);
          }
        }
      }
      current = next;
    }
    return new KeyRanges(merge(current), List.copyOf(pushed));
  }

  /** The ranges one filter allows, or null when it says nothing about the first key field. */
  private static List<Range> ranges(Field key, KeyCodec codec, Filter f) {
    if (f instanceof EqualTo e && key.name().equals(e.attribute())) {
      byte[] k = encode(key, codec, e.value());
      return k == null ? null : List.of(new Range(k, prefixEnd(k)));
    }
    if (f instanceof In in && key.name().equals(in.attribute())) {
      List<Range> out = new ArrayList<>();
      for (Object v : in.values()) {
        if (v == null) {
          continue; // IN (..., NULL) never matches a key, which is never null
        }
        byte[] k = encode(key, codec, v);
        if (k == null) {
          return null;
        }
        out.add(new Range(k, prefixEnd(k)));
      }
      return out;
    }
    if (f instanceof GreaterThan g && key.name().equals(g.attribute())) {
      byte[] k = encode(key, codec, g.value());
      return k == null ? null : List.of(new Range(prefixEnd(k), null));
    }
    if (f instanceof GreaterThanOrEqual g && key.name().equals(g.attribute())) {
      byte[] k = encode(key, codec, g.value());
      return k == null ? null : List.of(new Range(k, null));
    }
    if (f instanceof LessThan l && key.name().equals(l.attribute())) {
      byte[] k = encode(key, codec, l.value());
      return k == null ? null : List.of(new Range(null, k));
    }
    if (f instanceof LessThanOrEqual l && key.name().equals(l.attribute())) {
      byte[] k = encode(key, codec, l.value());
      return k == null ? null : List.of(new Range(null, prefixEnd(k)));
    }
    if (f instanceof StringStartsWith s && key.name().equals(s.attribute())
        && key.type().kind() == io.snapds.dataset.schema.Type.Kind.STRING && !s.value().isEmpty()) {
      byte[] k = encode(key, codec, s.value());
      // a string's encoding ends with the 0x00 0x00 terminator: without it, the prefix of every
      // string that starts with this one
      byte[] p = Arrays.copyOf(k, k.length - 2);
      return List.of(new Range(p, prefixEnd(p)));
    }
    return null;
  }

  /** The encoding of a filter's value as the first key field, or null when it is not pushed down. */
  private static byte[] encode(Field key, KeyCodec codec, Object v) {
    Object value;
    switch (key.type().kind()) {
      case BOOLEAN: value = v instanceof Boolean ? v : null; break;
      case INT: value = v instanceof Integer || v instanceof Short || v instanceof Byte ? ((Number) v).intValue() : null; break;
      case LONG:
        value = v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
            ? ((Number) v).longValue() : null;
        break;
      case STRING: value = v instanceof String ? v : null; break;
      case BYTES: value = v instanceof byte[] ? v : null; break;
      // java.time values only (spark.sql.datetime.java8API.enabled, and always for timestamp_ntz):
      // java.sql.Date and Timestamp depend on the JVM's zone and calendar
      case DATE: value = v instanceof LocalDate ? v : null; break;
      case TIMESTAMP: value = v instanceof LocalDateTime ? v : null; break;
      case TIMESTAMPTZ: value = v instanceof Instant ? v : null; break;
      default: value = null; // float, double: see the class comment
    }
    if (value == null) {
      return null;
    }
    try {
      return codec.encodePrefix(List.of(value));
    } catch (RuntimeException e) {
      return null; // a value the field cannot hold (a timestamp with nanoseconds): left to Spark
    }
  }

  /** The first key after every key that starts with {@code prefix}; null when there is none. */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }

  /** Sorted by start, overlapping and touching ranges joined. */
  private static List<Range> merge(List<Range> ranges) {
    List<Range> sorted = new ArrayList<>(ranges);
    Comparator<byte[]> starts = (a, b) -> a == null ? (b == null ? 0 : -1) : b == null ? 1 : Bytes.compareTo(a, b);
    sorted.sort((a, b) -> starts.compare(a.start(), b.start()));
    List<Range> out = new ArrayList<>();
    for (Range r : sorted) {
      if (!out.isEmpty()) {
        Range last = out.get(out.size() - 1);
        if (last.stop() == null || r.start() == null || Bytes.compareTo(r.start(), last.stop()) <= 0) {
          byte[] stop = last.stop() == null || r.stop() == null ? null
              : Bytes.compareTo(last.stop(), r.stop()) >= 0 ? last.stop() : r.stop();
          out.set(out.size() - 1, new Range(last.start(), stop));
          continue;
        }
      }
      out.add(r);
    }
    return List.copyOf(out);
  }

  @Override
  public String toString() {
    return ranges.toString();
  }
}
