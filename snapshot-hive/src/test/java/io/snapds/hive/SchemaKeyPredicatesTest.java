package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.Schema;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.hive.common.type.Timestamp;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBetween;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPAnd;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqual;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrLessThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPLessThan;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;
import org.junit.jupiter.api.Test;

/**
 * Conditions on a typed key (#15): an int key with negative values, a timestamp key with
 * microseconds, and the first field of a composite key become key ranges that hold exactly the
 * encoded keys of the matching values, through the schema's order-preserving key encoding. With
 * the mapping's raw keys an int or timestamp range was not pushed at all.
 */
class SchemaKeyPredicatesTest {
  private static ExprNodeDesc call(GenericUDF udf, ExprNodeDesc... args) {
    return new ExprNodeGenericFuncDesc(TypeInfoFactory.booleanTypeInfo, udf, List.of(args));
  }

  private static ExprNodeDesc column(String name, PrimitiveTypeInfo type) {
    return new ExprNodeColumnDesc(type, name, "t", false);
  }

  private static ExprNodeDesc constant(PrimitiveTypeInfo type, Object value) {
    return new ExprNodeConstantDesc(type, value);
  }

  /** The values whose encoded keys lie in the ranges {@code predicate} pushes. */
  private static <T> List<T> inRanges(Schema schema, ExprNodeDesc predicate, List<List<Object>> keys,
      java.util.function.Function<List<Object>, T> label) {
    List<KeyRange> ranges = new KeyPredicates(new SchemaKeyColumn(schema)).rangesOf(predicate);
    KeyCodec codec = new KeyCodec(schema);
    List<T> out = new ArrayList<>();
    for (List<Object> k : keys) {
      byte[] key = codec.encode(k);
      if (ranges.stream().anyMatch(r -> r.contains(key))) {
        out.add(label.apply(k));
      }
    }
    return out;
  }

  private static List<Integer> ints(int from, int to, Predicate<Integer> which) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      if (which.test(i)) {
        out.add(i);
      }
    }
    return out;
  }

  @Test
  void intRangesAcrossZero() {
    Schema schema = Schema.parse("n int key, v string");
    List<List<Object>> keys = new ArrayList<>();
    ints(-20, 19, i -> true).forEach(i -> keys.add(List.of(i)));
    keys.add(List.of(Integer.MIN_VALUE));
    keys.add(List.of(Integer.MAX_VALUE));
    ExprNodeDesc n = column("n", TypeInfoFactory.intTypeInfo);
    ExprNodeDesc range = call(new GenericUDFOPAnd(), call(new GenericUDFOPGreaterThan(), n,
        constant(TypeInfoFactory.intTypeInfo, -4)), call(new GenericUDFOPLessThan(), n, constant(TypeInfoFactory.intTypeInfo, 5)));
    assertEquals(ints(-3, 4, i -> true), inRanges(schema, range, keys, k -> (Integer) k.get(0)));
    ExprNodeDesc between = call(new GenericUDFBetween(), constant(TypeInfoFactory.booleanTypeInfo, false), n,
        constant(TypeInfoFactory.intTypeInfo, -25), constant(TypeInfoFactory.intTypeInfo, -18));
    assertEquals(ints(-20, -18, i -> true), inRanges(schema, between, keys, k -> (Integer) k.get(0)));
    ExprNodeDesc equal = call(new GenericUDFOPEqual(), n, constant(TypeInfoFactory.intTypeInfo, Integer.MIN_VALUE));
    assertEquals(List.of(Integer.MIN_VALUE), inRanges(schema, equal, keys, k -> (Integer) k.get(0)));
  }

  @Test
  void timestampRangeWithMicroseconds() {
    Schema schema = Schema.parse("at timestamp key, v string");
    LocalDateTime base = LocalDateTime.of(1969, 12, 31, 20, 0);
    List<List<Object>> keys = new ArrayList<>();
    for (int h = 0; h < 10; h++) {
      keys.add(List.of(base.plusHours(h).plusNanos(h * 1_000L)));
    }
    ExprNodeDesc at = column("at", TypeInfoFactory.timestampTypeInfo);
    // at > 1969-12-31 21:00:00.000001 (the second row exactly: excluded) and at <= 1970-01-01 00:00:00.000004
    ExprNodeDesc range = call(new GenericUDFOPAnd(),
        call(new GenericUDFOPGreaterThan(), at, constant(TypeInfoFactory.timestampTypeInfo,
            Timestamp.valueOf("1969-12-31 21:00:00.000001"))),
        call(new GenericUDFOPEqualOrLessThan(), at, constant(TypeInfoFactory.timestampTypeInfo,
            Timestamp.valueOf("1970-01-01 00:00:00.000004"))));
    assertEquals(List.of(2, 3, 4), inRanges(schema, range, keys, k -> (int) java.time.Duration.between(base, (LocalDateTime) k.get(0)).toHours()));
  }

  @Test
  void theFirstFieldOfACompositeKeyIsAPrefixRange() {
    Schema schema = Schema.parse("day int key, name string key, v long");
    List<List<Object>> keys = new ArrayList<>();
    for (int d = -2; d <= 2; d++) {
      for (String name : List.of("", "a", "a\u0000b", "zz")) {
        keys.add(List.of(d, name));
      }
    }
    ExprNodeDesc day = column("day", TypeInfoFactory.intTypeInfo);
    assertEquals(List.of("0/", "0/a", "0/a\u0000b", "0/zz"), inRanges(schema,
        call(new GenericUDFOPEqual(), day, constant(TypeInfoFactory.intTypeInfo, 0)), keys, k -> k.get(0) + "/" + k.get(1)));
    assertEquals(List.of("-2/", "-2/a", "-2/a\u0000b", "-2/zz", "-1/", "-1/a", "-1/a\u0000b", "-1/zz"), inRanges(schema,
        call(new GenericUDFOPLessThan(), day, constant(TypeInfoFactory.intTypeInfo, 0)), keys, k -> k.get(0) + "/" + k.get(1)));
    assertEquals(List.of("1/", "1/a", "1/a\u0000b", "1/zz", "2/", "2/a", "2/a\u0000b", "2/zz"), inRanges(schema,
        call(new GenericUDFOPGreaterThan(), day, constant(TypeInfoFactory.intTypeInfo, 0)), keys, k -> k.get(0) + "/" + k.get(1)));
  }
}
