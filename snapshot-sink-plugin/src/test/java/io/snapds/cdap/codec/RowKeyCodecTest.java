package io.snapds.cdap.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RowKeyCodecTest {
  private static final Schema SCHEMA = Schema.recordOf("k",
      Schema.Field.of("s", Schema.of(Schema.Type.STRING)),
      Schema.Field.of("i", Schema.nullableOf(Schema.of(Schema.Type.INT))),
      Schema.Field.of("d", Schema.of(Schema.Type.DOUBLE)),
      Schema.Field.of("b", Schema.of(Schema.Type.BYTES)),
      Schema.Field.of("l", Schema.of(Schema.LogicalType.TIMESTAMP_MICROS)),
      Schema.Field.of("f", Schema.of(Schema.Type.FLOAT)),
      Schema.Field.of("flag", Schema.of(Schema.Type.BOOLEAN)));

  /** Compares records by their key field values, first field first: what the bytes must agree with. */
  private static final Comparator<StructuredRecord> BY_VALUES = Comparator
      .<StructuredRecord, String>comparing(r -> r.get("s"), Comparator.comparing(
          (String s) -> s.getBytes(java.nio.charset.StandardCharsets.UTF_8), Bytes.BYTES_COMPARATOR))
      .thenComparing(r -> (Integer) r.get("i"))
      .thenComparing(r -> (Double) r.get("d"))
      .thenComparing(r -> (byte[]) r.get("b"), Bytes.BYTES_COMPARATOR)
      .thenComparing(r -> (Long) r.get("l"))
      .thenComparing(r -> (Float) r.get("f"))
      .thenComparing(r -> (Boolean) r.get("flag"));

  @Test
  void byteOrderOfCompositeKeysIsTheOrderOfTheirValues() {
    RowKeyCodec codec = RowKeyCodec.of(SCHEMA, List.of("s", "i", "d", "b", "l", "f", "flag"));
    Random random = new Random(42);
    String[] strings = {"", "a", "a\u0000", "a\u0000b", "ab", "b", "\u0000", "\u00e9", "a\u0001"};
    int[] ints = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE};
    double[] doubles = {Double.NEGATIVE_INFINITY, -1e300, -1.5, -0.0, 0.0, 1e-300, 2.5, Double.POSITIVE_INFINITY};
    byte[][] bytes = {{}, {0}, {0, 0}, {0, 1}, {1}, {(byte) 0xFF}, {(byte) 0xFF, 0}};
    long[] longs = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    float[] floats = {Float.NEGATIVE_INFINITY, -1f, -0f, 0f, 3.5f, Float.MAX_VALUE};
    List<StructuredRecord> records = new ArrayList<>();
    for (int n = 0; n < 3000; n++) {
      records.add(StructuredRecord.builder(SCHEMA)
          .set("s", strings[random.nextInt(strings.length)])
          .set("i", ints[random.nextInt(ints.length)])
          .set("d", doubles[random.nextInt(doubles.length)])
          .set("b", bytes[random.nextInt(bytes.length)])
          .set("l", longs[random.nextInt(longs.length)])
          .set("f", floats[random.nextInt(floats.length)])
          .set("flag", random.nextBoolean())
          .build());
    }
    for (int n = 1; n < records.size(); n++) {
      StructuredRecord a = records.get(n - 1);
      StructuredRecord b = records.get(n);
      int byValues = Integer.signum(BY_VALUES.compare(a, b));
      int byBytes = Integer.signum(Bytes.BYTES_COMPARATOR.compare(codec.encode(a), codec.encode(b)));
      assertEquals(byValues, byBytes, "order of " + describe(a) + " and " + describe(b));
    }
  }

  @Test
  void noEncodedStringIsAPrefixOfAnother() {
    Schema schema = Schema.recordOf("k", Schema.Field.of("s", Schema.of(Schema.Type.STRING)),
        Schema.Field.of("t", Schema.of(Schema.Type.STRING)));
    RowKeyCodec codec = RowKeyCodec.of(schema, List.of("s", "t"));
    // ("a", "bc") and ("ab", "c") must not collide, as plain concatenation would
    byte[] first = codec.encode(StructuredRecord.builder(schema).set("s", "a").set("t", "bc").build());
    byte[] second = codec.encode(StructuredRecord.builder(schema).set("s", "ab").set("t", "c").build());
    assertEquals(-1, Integer.signum(Bytes.BYTES_COMPARATOR.compare(first, second)));
  }

  private static String describe(StructuredRecord r) {
    return "(" + r.get("s") + ", " + r.get("i") + ", " + r.get("d") + ", " + Bytes.toStringBinary((byte[]) r.get("b"))
        + ", " + r.get("l") + ", " + r.get("f") + ", " + r.get("flag") + ")";
  }
}
