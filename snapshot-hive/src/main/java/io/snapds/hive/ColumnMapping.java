package io.snapds.hive;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;

/**
 * Where one Hive column comes from: the row key ({@code :key}), one column
 * {@code family:qualifier} of the snapshot, a diff's change type ({@code :change}) or the old value
 * of a diff's cell ({@code :old:family:qualifier}), and how its bytes are encoded. Immutable; built
 * by {@link ColumnMappings#parse}.
 */
public final class ColumnMapping {
  private final String hiveName;
  private final PrimitiveTypeInfo type;
  private final byte[] family;
  private final byte[] qualifier;
  private final ValueEncoding encoding;
  private final boolean change;
  private final boolean old;

  ColumnMapping(String hiveName, PrimitiveTypeInfo type, byte[] family, byte[] qualifier, ValueEncoding encoding) {
    this(hiveName, type, family, qualifier, encoding, false, false);
  }

  /** The {@code :change} column of a diff. */
  static ColumnMapping change(String hiveName, PrimitiveTypeInfo type) {
    return new ColumnMapping(hiveName, type, null, null, ValueEncoding.TEXT, true, false);
  }

  /** A {@code :old:family:qualifier} column: the cell as the older snapshot of a diff holds it. */
  static ColumnMapping old(String hiveName, PrimitiveTypeInfo type, byte[] family, byte[] qualifier,
      ValueEncoding encoding) {
    return new ColumnMapping(hiveName, type, family, qualifier, encoding, false, true);
  }

  private ColumnMapping(String hiveName, PrimitiveTypeInfo type, byte[] family, byte[] qualifier,
      ValueEncoding encoding, boolean change, boolean old) {
    this.change = change;
    this.old = old;
    this.hiveName = checkNotNull(hiveName, "hiveName");
    this.type = checkNotNull(type, "type");
    this.family = family;
    this.qualifier = qualifier;
    this.encoding = checkNotNull(encoding, "encoding");
  }

  public String hiveName() {
    return hiveName;
  }

  public PrimitiveTypeInfo type() {
    return type;
  }

  public boolean isKey() {
    return family == null && !change;
  }

  /** Whether the column is a diff's change type ({@code :change}): ADDED, REMOVED, CHANGED, or NULL. */
  public boolean isChange() {
    return change;
  }

  /**
   * Whether the column is a cell's value in a diff's older snapshot ({@code :old:family:qualifier}):
   * the value of a CHANGED or REMOVED row there, NULL for an ADDED row and outside a diff.
   */
  public boolean isOld() {
    return old;
  }

  /** Whether the column is a cell, {@code family:qualifier} (or its old value, {@link #isOld}). */
  public boolean isCell() {
    return family != null;
  }

  /** The family, or null for the row key. */
  public byte[] family() {
    return family == null ? null : family.clone();
  }

  /** The qualifier, or null for the row key. */
  public byte[] qualifier() {
    return qualifier == null ? null : qualifier.clone();
  }

  public ValueEncoding encoding() {
    return encoding;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnMapping other && hiveName.equals(other.hiveName) && type.equals(other.type)
        && Objects.deepEquals(family, other.family) && Objects.deepEquals(qualifier, other.qualifier)
        && encoding == other.encoding && change == other.change && old == other.old;
  }

  @Override
  public int hashCode() {
    return Objects.hash(hiveName, type, Bytes.hashCode(family == null ? new byte[0] : family),
        Bytes.hashCode(qualifier == null ? new byte[0] : qualifier), encoding, change, old);
  }

  @Override
  public String toString() {
    String source = change ? ":change" : isKey() ? ":key"
        : (old ? ":old:" : "") + Bytes.toString(family) + ":" + Bytes.toString(qualifier);
    return hiveName + " " + type.getTypeName() + " <- " + source + (encoding == ValueEncoding.BINARY ? "#b" : "");
  }
}
