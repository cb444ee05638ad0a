package io.snapds.cdap.codec;

import java.nio.ByteBuffer;

/** Conversions of the values a {@code StructuredRecord} may hold for one schema type. */
final class Values {
  private Values() {
  }

  /** A bytes (or decimal) value, held as {@code byte[]} or {@link ByteBuffer}, as a copy. */
  static byte[] bytes(Object value) {
    if (value instanceof byte[] b) {
      return b.clone();
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer b = buffer.duplicate();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    }
    throw new IllegalArgumentException("expected byte[] or ByteBuffer, got " + value.getClass().getName());
  }
}
