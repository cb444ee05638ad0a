package io.snapds.hive;

import org.apache.hadoop.hive.serde2.objectinspector.PrimitiveObjectInspector.PrimitiveCategory;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;

/**
 * The {@code :key} column of a {@code snapds.columns.mapping} table: the key is the value's
 * bytes as {@link HiveValueCodec} encodes them. Their byte order is the value order only for
 * strings and binaries; other types push only {@code =} and {@code IN}, and only with
 * {@code #b} encoding, where each value has one byte form.
 */
final class MappedKeyColumn implements KeyColumn {
  private final ColumnMapping key;

  MappedKeyColumn(ColumnMapping key) {
    this.key = key;
  }

  @Override
  public String name() {
    return key.hiveName();
  }

  @Override
  public PrimitiveTypeInfo type() {
    return key.type();
  }

  @Override
  public boolean ordered() {
    PrimitiveCategory c = key.type().getPrimitiveCategory();
    return c == PrimitiveCategory.STRING || c == PrimitiveCategory.VARCHAR || c == PrimitiveCategory.BINARY;
  }

  @Override
  public boolean exact() {
    PrimitiveCategory c = key.type().getPrimitiveCategory();
    return ordered() || key.encoding() == ValueEncoding.BINARY && c != PrimitiveCategory.CHAR
        && c != PrimitiveCategory.DECIMAL;
  }

  @Override
  public boolean prefixFree() {
    return false;
  }

  @Override
  public byte[] encode(Object constant) {
    byte[] b = HiveValueCodec.encode(constant, key.type(), key.encoding());
    return b == null || b.length == 0 ? null : b;
  }
}
