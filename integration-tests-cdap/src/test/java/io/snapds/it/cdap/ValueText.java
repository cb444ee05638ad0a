package io.snapds.it.cdap;

import org.apache.hadoop.hbase.util.Bytes;

/** A typed value as both JVMs of the CDAP tests compare it: bytes in HBase's printable form, anything else its toString. */
public final class ValueText {
  private ValueText() {}

  public static String of(Object value) {
    return value == null ? null : value instanceof byte[] b ? Bytes.toStringBinary(b) : value.toString();
  }
}
