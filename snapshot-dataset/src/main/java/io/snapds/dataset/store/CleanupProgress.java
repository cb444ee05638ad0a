package io.snapds.dataset.store;

import static com.google.common.base.Preconditions.checkArgument;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How far the cleanup of one snapshot got: the user-key ranges whose rows are deleted (sorted,
 * disjoint, adjacent ones joined) and the rows deleted so far. Stored in the metadata row
 * {@code q} + snapshot id until the snapshot is recorded cleaned. The ranges are key ranges, not
 * region names: a range recorded done stays done whatever the regions are later (splits, merges).
 * Immutable.
 */
public final class CleanupProgress {
  /** Nothing done yet. */
  public static final CleanupProgress NONE = new CleanupProgress(List.of(), 0);

  private static final byte FORMAT = 1;

  private final List<KeyRange> done;
  private final long rows;

  private CleanupProgress(List<KeyRange> done, long rows) {
    this.done = List.copyOf(done);
    this.rows = rows;
  }

  /** The ranges done, sorted by start, disjoint, no two adjacent. */
  public List<KeyRange> done() {
    return done;
  }

  /** Rows deleted by the runs that recorded this progress. */
  public long rows() {
    return rows;
  }

  /** True when the whole snapshot range is done. */
  public boolean complete() {
    return done.size() == 1 && done.get(0).equals(KeyRange.ALL);
  }

  /** This progress with {@code range} done and {@code deleted} more rows. */
  public CleanupProgress with(KeyRange range, long deleted) {
    checkArgument(deleted >= 0, "rows deleted must be >= 0, got %s", deleted);
    List<KeyRange> all = new ArrayList<>(done);
    all.add(range);
    all.sort(Comparator.comparing(KeyRange::start, Bytes.BYTES_COMPARATOR));
    List<KeyRange> joined = new ArrayList<>();
    for (KeyRange r : all) {
      KeyRange last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
      if (last != null && KeyRange.stopAtOrAfter(last.stop(), r.start())) {
        joined.set(joined.size() - 1, new KeyRange(last.start(), KeyRange.laterStop(last.stop(), r.stop())));
      } else {
        joined.add(r);
      }
    }
    return new CleanupProgress(joined, rows + deleted);
  }

  /**
   * The pieces still to delete: the snapshot's range cut at {@code boundaries} (the user keys
   * where the data table's regions inside the range begin, ascending), less what is done. A piece
   * that is partly done (the regions changed since) keeps only its parts not done.
   */
  public List<KeyRange> remaining(List<byte[]> boundaries) {
    List<KeyRange> out = new ArrayList<>();
    byte[] start = KeyRange.OPEN;
    for (byte[] b : boundaries) {
      checkArgument(b.length > 0 && Bytes.compareTo(b, start) > 0,
          "region boundaries must be non-empty and ascending, got %s after %s", Bytes.toStringBinary(b),
          Bytes.toStringBinary(start));
      subtract(new KeyRange(start, b), out);
      start = b;
    }
    subtract(new KeyRange(start, KeyRange.OPEN), out);
    return out;
  }

  private void subtract(KeyRange piece, List<KeyRange> out) {
    byte[] at = piece.start();
    for (KeyRange d : done) {
      if (d.stop().length > 0 && Bytes.compareTo(d.stop(), at) <= 0) {
        continue; // ends before what is left of the piece
      }
      if (!KeyRange.stopAfter(piece.stop(), d.start())) {
        break; // begins at or after the piece's end
      }
      if (Bytes.compareTo(d.start(), at) > 0) {
        out.add(new KeyRange(at, d.start()));
      }
      if (d.stop().length == 0) {
        return; // done to the end of the snapshot
      }
      at = Bytes.compareTo(d.stop(), at) > 0 ? d.stop() : at;
    }
    if (KeyRange.stopAfter(piece.stop(), at)) {
      out.add(new KeyRange(at, piece.stop()));
    }
  }

  /** The stored form: a format byte, the rows, then each range's start and stop, length first. */
  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeLong(rows);
      out.writeInt(done.size());
      for (KeyRange r : done) {
        out.writeInt(r.start().length);
        out.write(r.start());
        out.writeInt(r.stop().length);
        out.write(r.stop());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in memory: does not happen
    }
    return bytes.toByteArray();
  }

  /** @throws IllegalArgumentException when {@code value} is not what {@link #encode} wrote */
  static CleanupProgress decode(byte[] value) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
      byte format = in.readByte();
      checkArgument(format == FORMAT, "unknown cleanup progress format %s", format);
      long rows = in.readLong();
      int n = in.readInt();
      checkArgument(n >= 0 && n <= value.length, "bad range count %s", n);
      CleanupProgress p = new CleanupProgress(List.of(), rows);
      List<KeyRange> ranges = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        ranges.add(new KeyRange(read(in, value.length), read(in, value.length)));
      }
      checkArgument(in.available() == 0, "%s bytes after the last range", in.available());
      for (KeyRange r : ranges) {
        p = p.with(r, 0);
      }
      return p;
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated cleanup progress: " + e, e);
    }
  }

  private static byte[] read(DataInputStream in, int max) throws IOException {
    int len = in.readInt();
    checkArgument(len >= 0 && len <= max, "bad key length %s", len);
    byte[] b = new byte[len];
    in.readFully(b);
    return b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CleanupProgress p && rows == p.rows && done.equals(p.done);
  }

  @Override
  public int hashCode() {
    return Objects.hash(done, rows);
  }

  @Override
  public String toString() {
    return "CleanupProgress{rows=" + rows + ", done=" + done + "}";
  }

  /**
   * A range of user keys within one snapshot: {@code start} inclusive (empty: the snapshot's
   * first key), {@code stop} exclusive (empty: past its last key). Immutable.
   */
  public static final class KeyRange {
    static final byte[] OPEN = new byte[0];
    /** The whole snapshot. */
    public static final KeyRange ALL = new KeyRange(OPEN, OPEN);

    private final byte[] start;
    private final byte[] stop;

    public KeyRange(byte[] start, byte[] stop) {
      checkArgument(start != null && stop != null, "range bounds must not be null");
      checkArgument(stopAfter(stop, start), "empty range [%s, %s)", Bytes.toStringBinary(start),
          Bytes.toStringBinary(stop));
      this.start = start.clone();
      this.stop = stop.clone();
    }

    public byte[] start() {
      return start.clone();
    }

    public byte[] stop() {
      return stop.clone();
    }

    /** Whether the exclusive {@code stop} lies after the key {@code key} (an empty stop: always). */
    static boolean stopAfter(byte[] stop, byte[] key) {
      return stop.length == 0 || Bytes.compareTo(stop, key) > 0;
    }

    static boolean stopAtOrAfter(byte[] stop, byte[] key) {
      return stop.length == 0 || Bytes.compareTo(stop, key) >= 0;
    }

    static byte[] laterStop(byte[] a, byte[] b) {
      return a.length == 0 || b.length == 0 ? OPEN : Bytes.compareTo(a, b) >= 0 ? a : b;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof KeyRange r && Arrays.equals(start, r.start) && Arrays.equals(stop, r.stop);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(start) + Arrays.hashCode(stop);
    }

    @Override
    public String toString() {
      return "[" + Bytes.toStringBinary(start) + ", " + (stop.length == 0 ? "end" : Bytes.toStringBinary(stop)) + ")";
    }
  }
}
