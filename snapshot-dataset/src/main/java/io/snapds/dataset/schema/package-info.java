/**
 * Typed schemas for snapshot datasets: {@link io.snapds.dataset.schema.Schema} (ordered, named,
 * typed fields with stable ids, some of which form the row key), one binary cell encoding per
 * type ({@link io.snapds.dataset.schema.ValueCodec}), an order-preserving key encoding
 * ({@link io.snapds.dataset.schema.KeyCodec}) and the mapping between a typed record and a
 * {@link io.snapds.dataset.SnapshotRow} ({@link io.snapds.dataset.schema.RowCodec}). Only
 * primitive types: no arrays, maps or nested records. The encodings are described in
 * {@code docs/design.md}, section "Schemas" (schema {@code format.version} 1).
 */
@InterfaceAudience.Public
package io.snapds.dataset.schema;

import org.apache.yetus.audience.InterfaceAudience;
