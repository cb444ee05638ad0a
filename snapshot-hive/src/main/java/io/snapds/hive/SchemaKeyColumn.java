package io.snapds.hive;

import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.InvalidValueException;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.Schema;
import java.util.List;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;

/**
 * The first key field of a dataset schema as the key column of a Hive table. The schema's key
 * encoding ({@link KeyCodec}) preserves order and each field's bytes are self-delimiting, so every
 * comparison on the field is a key range: on a one-field key a range of whole keys, on the first
 * field of a composite key a range of key prefixes.
 */
final class SchemaKeyColumn implements KeyColumn {
  private final KeyCodec codec;
  private final Field field;
  private final PrimitiveTypeInfo type;

  SchemaKeyColumn(Schema schema) {
    this.codec = new KeyCodec(schema);
    this.field = schema.keyFields().get(0);
    this.type = HiveTypes.typeInfo(field.type());
  }

  @Override
  public String name() {
    return field.name();
  }

  @Override
  public PrimitiveTypeInfo type() {
    return type;
  }

  @Override
  public boolean ordered() {
    return true;
  }

  @Override
  public boolean exact() {
    return true;
  }

  @Override
  public boolean prefixFree() {
    return true;
  }

  @Override
  public byte[] encode(Object constant) {
    Object value = HiveTypes.fromHive(field, constant);
    if (value == null) {
      return null;
    }
    try {
      return codec.encodePrefix(List.of(value));
    } catch (InvalidValueException e) {
      return null; // e.g. a timestamp constant with nanoseconds: not pushed, Hive still filters
    }
  }
}
