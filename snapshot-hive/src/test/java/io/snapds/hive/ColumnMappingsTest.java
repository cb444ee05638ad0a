package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;
import org.junit.jupiter.api.Test;

/** Parsing {@code snapds.columns.mapping}, and the messages that name a bad entry. */
class ColumnMappingsTest {
  private static final List<String> NAMES = List.of("k", "price", "qty");
  private static final List<TypeInfo> TYPES = TypeInfoUtils.getTypeInfosFromTypeString("string,double,int");

  @Test
  void parsesKeyCellsAndEncodings() {
    ColumnMappings m = ColumnMappings.parse(":key, d:price ,e:qty#b", NAMES, TYPES);
    assertEquals(0, m.keyIndex());
    assertTrue(m.key().isKey());
    ColumnMapping qty = m.columns().get(2);
    assertArrayEquals(Bytes.toBytes("e"), qty.family());
    assertArrayEquals(Bytes.toBytes("qty"), qty.qualifier());
    assertEquals(ValueEncoding.BINARY, qty.encoding());
    assertEquals(ValueEncoding.TEXT, m.columns().get(1).encoding());
    assertEquals(Set.of("d", "e"), m.families());
  }

  @Test
  void rejectsBadMappingsNamingTheEntry() {
    assertMessage("snapds.columns.mapping ':key,d:price' has 2 entries but the table has 3 columns [k, price, qty]",
        ":key,d:price");
    assertMessage("has no :key entry", "d:k,d:price,d:qty");
    assertMessage("maps both k and qty to :key", ":key,d:price,:key");
    assertMessage("mapping 'price' of column price is not ':key', ':change', 'family:qualifier' or"
        + " ':old:family:qualifier'", ":key,price,d:qty");
    assertMessage("mapping 'd:' of column price is not ':key', ':change', 'family:qualifier' or"
        + " ':old:family:qualifier'", ":key,d:,d:qty");
    assertMessage("mapping 'd:qty#x' of column qty has an unknown suffix '#x'", ":key,d:price,d:qty#x");
    assertMessage("maps the cell d:price twice", ":key,d:price,d:price");
    assertMessage("table property snapds.columns.mapping is missing", " ");
  }

  @Test
  void aChangeColumnIsNeitherKeyNorCellAndMustBeOneStringAndOldCellsAreCells() {
    List<String> names = List.of("k", "snapds_change", "price");
    ColumnMappings m = ColumnMappings.parse(":key,:change,d:price", names,
        TypeInfoUtils.getTypeInfosFromTypeString("string,string,double"));
    assertEquals(0, m.keyIndex());
    ColumnMapping change = m.columns().get(1);
    assertTrue(change.isChange());
    assertTrue(!change.isKey() && !change.isCell());
    assertEquals(Set.of("d"), m.families());
    ColumnMappings withOld = ColumnMappings.parse(":key,d:qty#b,:old:d:qty#b", List.of("k", "qty", "old_qty"),
        TypeInfoUtils.getTypeInfosFromTypeString("string,int,int"));
    ColumnMapping oldQty = withOld.columns().get(2);
    assertTrue(oldQty.isOld() && oldQty.isCell() && !withOld.columns().get(1).isOld());
    assertArrayEquals(Bytes.toBytes("qty"), oldQty.qualifier());
    assertEquals(ValueEncoding.BINARY, oldQty.encoding());
    IllegalArgumentException oldTwice = assertThrows(IllegalArgumentException.class, () -> ColumnMappings.parse(
        ":key,:old:d:qty,:old:d:qty", List.of("k", "a", "b"),
        TypeInfoUtils.getTypeInfosFromTypeString("string,int,int")));
    assertTrue(oldTwice.getMessage().contains("maps the cell :old:d:qty twice"), oldTwice.getMessage());
    IllegalArgumentException notString = assertThrows(IllegalArgumentException.class, () -> ColumnMappings.parse(
        ":key,:change,d:price", names, TypeInfoUtils.getTypeInfosFromTypeString("string,int,double")));
    assertTrue(notString.getMessage().contains("mapping ':change' of column snapds_change: a diff's change column is"
        + " a string column mapped as plain ':change', not int"), notString.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ColumnMappings.parse(
        ":key,:change,:change", names, TypeInfoUtils.getTypeInfosFromTypeString("string,string,string")));
    assertTrue(twice.getMessage().contains("maps both snapds_change and price to :change"), twice.getMessage());
  }

  @Test
  void rejectsFamiliesTheDatasetLacks() {
    ColumnMappings m = ColumnMappings.parse(":key,d:price,x:qty", NAMES, TYPES);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> m.checkFamilies(List.of("d"), "t:prices"));
    assertEquals("snapds.columns.mapping maps family 'x', which dataset t:prices does not have (it has [d])",
        e.getMessage());
  }

  private static void assertMessage(String expected, String spec) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ColumnMappings.parse(spec, NAMES, TYPES));
    assertTrue(e.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + e.getMessage());
  }
}
