package io.snapds.dataset.read;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/**
 * One piece of a diff between two pinned snapshots: the same range of user keys in each, as two
 * {@link ReadSplit}s (the older snapshot's, {@link #before()}, and the newer's, {@link #after()}),
 * cut where a region of either snapshot begins, so that each side of a piece lies in one region.
 * A task reads it with a {@link DiffSplitReader}. A plain value, sent with {@link #write}/{@link
 * #read} (or Java serialization). Immutable.
 */
public final class DiffSplit implements Serializable {
  private static final long serialVersionUID = 1L;
  /** The first byte of {@link #write}'s form. */
  private static final int WIRE_VERSION = 1;

  private final ReadSplit before;
  private final ReadSplit after;

  /** @throws IllegalArgumentException if the two splits are of different datasets */
  public DiffSplit(ReadSplit before, ReadSplit after) {
    this.before = checkNotNull(before, "before split must not be null");
    this.after = checkNotNull(after, "after split must not be null");
    checkArgument(before.dataset().equals(after.dataset()), "a diff's sides are of one dataset, got %s and %s",
        before.dataset(), after.dataset());
  }

  public DatasetId dataset() {
    return before.dataset();
  }

  /** The older ("from") snapshot's part. */
  public ReadSplit before() {
    return before;
  }

  /** The newer ("to") snapshot's part. */
  public ReadSplit after() {
    return after;
  }

  /** The hosts of the newer side's region, then the older's (location hints). */
  public String[] locations() {
    String[] a = after.locations();
    String[] b = before.locations();
    return a.length == 0 ? b : a;
  }

  public void write(DataOutput out) throws IOException {
    out.writeByte(WIRE_VERSION);
    before.write(out);
    after.write(out);
  }

  /** @throws IOException if the bytes are not a diff split of a version this library reads */
  public static DiffSplit read(DataInput in) throws IOException {
    int version = in.readByte();
    if (version != WIRE_VERSION) {
      throw new IOException("a diff split of wire version " + version + ", this library reads " + WIRE_VERSION
          + ": the job's client and its tasks run different snapds versions");
    }
    return new DiffSplit(ReadSplit.read(in), ReadSplit.read(in));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DiffSplit d && before.equals(d.before) && after.equals(d.after);
  }

  @Override
  public int hashCode() {
    return 31 * before.hashCode() + after.hashCode();
  }

  @Override
  public String toString() {
    return "DiffSplit{" + before + " -> " + after + "}";
  }
}
