package io.snapds.hive;

import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;

/**
 * The Hive column a table's row key (or the first field of it) comes from, and how a constant of
 * its type becomes key bytes: what {@link KeyPredicates} needs to turn conditions on the column
 * into key ranges. Two kinds: a {@code snapds.columns.mapping} {@code :key} column
 * ({@link MappedKeyColumn}) and the first key field of a dataset schema ({@code SchemaKeyColumn}).
 */
interface KeyColumn {
  /** The Hive column name. */
  String name();

  /** The Hive column type; constants of another type are not pushed. */
  PrimitiveTypeInfo type();

  /** Whether the byte order of encoded keys is the order of the column's values ({@code <}, {@code >} pushable). */
  boolean ordered();

  /** Whether each value has exactly one key form ({@code =} and {@code IN} pushable). */
  boolean exact();

  /**
   * Whether the encoded value is a prefix-free leading part of the key: then the rows whose
   * column equals the value are exactly the keys that start with its bytes (a composite key's
   * first field, an order-preserving single field). Otherwise the key is the value's bytes alone.
   */
  boolean prefixFree();

  /** The key bytes of a constant of {@link #type()}; null when it has none. */
  byte[] encode(Object constant);
}
