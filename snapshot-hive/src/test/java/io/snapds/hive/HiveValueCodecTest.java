package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.common.type.Date;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.common.type.Timestamp;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;
import org.junit.jupiter.api.Test;

/** The documented cell encodings, both ways. */
class HiveValueCodecTest {
  private static Object text(String s, PrimitiveTypeInfo type) {
    return HiveValueCodec.decode(Bytes.toBytes(s), type, ValueEncoding.TEXT);
  }

  @Test
  void textValues() {
    assertEquals(42, text("42", TypeInfoFactory.intTypeInfo));
    assertEquals(3.5, text("3.5", TypeInfoFactory.doubleTypeInfo));
    assertEquals(true, text("TRUE", TypeInfoFactory.booleanTypeInfo));
    assertEquals(HiveDecimal.create("12.30"), text("12.30", TypeInfoFactory.getDecimalTypeInfo(10, 2)));
    assertEquals(Timestamp.valueOf("2026-11-30 08:00:00"), text("2026-11-30 08:00:00", TypeInfoFactory.timestampTypeInfo));
    assertEquals(Date.valueOf("2026-11-30"), text("2026-11-30", TypeInfoFactory.dateTypeInfo));
    assertArrayEquals(Bytes.toBytes("2026-11-30 08:00:00"),
        HiveValueCodec.encode(Timestamp.valueOf("2026-11-30 08:00:00"), TypeInfoFactory.timestampTypeInfo, ValueEncoding.TEXT));
  }

  @Test
  void textThatDoesNotParseIsNull() {
    assertNull(text("forty-two", TypeInfoFactory.intTypeInfo));
    assertNull(text("maybe", TypeInfoFactory.booleanTypeInfo));
    assertNull(text("yesterday", TypeInfoFactory.timestampTypeInfo));
  }

  @Test
  void binaryValuesRoundTrip() {
    Object[][] cases = {
        {TypeInfoFactory.intTypeInfo, -7, Bytes.toBytes(-7)},
        {TypeInfoFactory.longTypeInfo, 1L << 40, Bytes.toBytes(1L << 40)},
        {TypeInfoFactory.doubleTypeInfo, 2.25, Bytes.toBytes(2.25)},
        {TypeInfoFactory.booleanTypeInfo, true, new byte[] {1}},
        {TypeInfoFactory.timestampTypeInfo, Timestamp.ofEpochMilli(1_796_000_000_000L), Bytes.toBytes(1_796_000_000_000L)},
    };
    for (Object[] c : cases) {
      PrimitiveTypeInfo type = (PrimitiveTypeInfo) c[0];
      assertArrayEquals((byte[]) c[2], HiveValueCodec.encode(c[1], type, ValueEncoding.BINARY), type.getTypeName());
      assertEquals(c[1], HiveValueCodec.decode((byte[]) c[2], type, ValueEncoding.BINARY), type.getTypeName());
    }
  }

  @Test
  void binaryOfTheWrongWidthIsNull() {
    assertNull(HiveValueCodec.decode(new byte[3], TypeInfoFactory.intTypeInfo, ValueEncoding.BINARY));
  }
}
