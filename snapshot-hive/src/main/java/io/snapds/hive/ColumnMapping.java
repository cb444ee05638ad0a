package io.snapds.hive;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;

/**
 * Where one Hive column comes from: the row key ({@code :key}) or one column
 * {@code family:qualifier} of the snapshot, and how its bytes are encoded. Immutable; built by
 * {@link ColumnMappings#parse}.
 */
public final class ColumnMapping {
  private final String hiveName;
  private final PrimitiveTypeInfo type;
  private final byte[] family;
  private final byte[] qualifier;
  private final ValueEncoding encoding;

  ColumnMapping(String hiveName, PrimitiveTypeInfo type, byte[] family, byte[] qualifier, ValueEncoding encoding) {
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
    return family == null;
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
        && encoding == other.encoding;
  }

  @Override
  public int hashCode() {
    return Objects.hash(hiveName, type, Bytes.hashCode(family == null ? new byte[0] : family),
        Bytes.hashCode(qualifier == null ? new byte[0] : qualifier), encoding);
  }

  @Override
  public String toString() {
    String source = isKey() ? ":key" : Bytes.toString(family) + ":" + Bytes.toString(qualifier);
    return hiveName + " " + type.getTypeName() + " <- " + source + (encoding == ValueEncoding.BINARY ? "#b" : "");
  }
}
