package io.snapds.hive;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hive.ql.exec.SerializationUtilities;
import org.apache.hadoop.hive.ql.metadata.HiveStoragePredicateHandler.DecomposedPredicate;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDescUtils;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBetween;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFIn;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqual;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrLessThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPLessThan;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;

/**
 * Turns the row-key conditions of a WHERE clause into key ranges of the snapshot scan.
 *
 * <p>Pushed: {@code key = c}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code BETWEEN} and
 * {@code key IN (c1, c2...)}, joined by AND, with constants. Ranges need an order that is the
 * byte order of the stored keys, and points need one byte form per value: the {@link KeyColumn}
 * says which the table's key has (a mapped string key: both; a mapped {@code #b} int: points;
 * a dataset schema's key field: both, through the schema's order-preserving key encoding).
 *
 * <p>The decomposition keeps the whole predicate as the residual: Hive checks every returned row
 * again, so a scan that reads too much can never produce a wrong answer. The pushed part only
 * makes the scan read less (the {@code snapds:ROWS_READ} counter shows how much).
 */
final class KeyPredicates {
  private final KeyColumn key;

  KeyPredicates(KeyColumn key) {
    this.key = key;
  }

  /** What to push for {@code predicate}, or null when no conjunct is a pushable key condition. */
  DecomposedPredicate decompose(ExprNodeDesc predicate) {
    List<ExprNodeDesc> pushed = new ArrayList<>();
    for (ExprNodeDesc conjunct : ExprNodeDescUtils.split(predicate)) {
      if (ranges(conjunct).isPresent()) {
        pushed.add(conjunct);
      }
    }
    if (pushed.isEmpty()) {
      return null;
    }
    DecomposedPredicate d = new DecomposedPredicate();
    d.pushedPredicate = (ExprNodeGenericFuncDesc) ExprNodeDescUtils.mergePredicates(pushed);
    d.residualPredicate = (ExprNodeGenericFuncDesc) predicate;
    return d;
  }

  /** The key ranges a serialized pushed predicate allows; [ALL] when it is null. */
  List<KeyRange> rangesOf(String serializedPredicate) {
    if (serializedPredicate == null || serializedPredicate.isEmpty()) {
      return List.of(KeyRange.ALL);
    }
    return rangesOf(SerializationUtilities.deserializeExpression(serializedPredicate));
  }

  /** The key ranges {@code predicate} allows: the intersection over its pushable conjuncts. */
  List<KeyRange> rangesOf(ExprNodeDesc predicate) {
    List<KeyRange> result = List.of(KeyRange.ALL);
    for (ExprNodeDesc conjunct : ExprNodeDescUtils.split(predicate)) {
      Optional<List<KeyRange>> r = ranges(conjunct);
      if (r.isPresent()) {
        result = KeyRange.intersect(result, r.get());
      }
    }
    return result;
  }

  /** The ranges one conjunct allows, when it is a key condition this class pushes. */
  private Optional<List<KeyRange>> ranges(ExprNodeDesc conjunct) {
    if (!(conjunct instanceof ExprNodeGenericFuncDesc)) {
      return Optional.empty();
    }
    ExprNodeGenericFuncDesc f = (ExprNodeGenericFuncDesc) conjunct;
    GenericUDF udf = f.getGenericUDF();
    List<ExprNodeDesc> args = f.getChildren();
    if (udf instanceof GenericUDFIn) {
      if (args.size() < 2 || !isKey(args.get(0))) {
        return Optional.empty();
      }
      List<KeyRange> points = new ArrayList<>();
      for (ExprNodeDesc a : args.subList(1, args.size())) {
        byte[] k = constant(a);
        if (k == null) {
          return Optional.empty();
        }
        points.add(point(k));
      }
      return Optional.of(KeyRange.merge(points));
    }
    if (udf instanceof GenericUDFBetween) {
      // BETWEEN(invert, column, low, high)
      if (args.size() != 4 || !Boolean.FALSE.equals(constantValue(args.get(0))) || !isKey(args.get(1))
          || !rangesAllowed()) {
        return Optional.empty();
      }
      byte[] low = constant(args.get(2));
      byte[] high = constant(args.get(3));
      if (low == null || high == null) {
        return Optional.empty();
      }
      KeyRange r = KeyRange.ALL.intersect(rangeFrom(low, true)).intersect(rangeTo(high, true));
      return Optional.of(r.isEmpty() ? List.of() : List.of(r));
    }
    if (args.size() != 2) {
      return Optional.empty();
    }
    boolean keyLeft = isKey(args.get(0));
    if (!keyLeft && !isKey(args.get(1))) {
      return Optional.empty();
    }
    byte[] c = constant(args.get(keyLeft ? 1 : 0));
    if (c == null) {
      return Optional.empty();
    }
    if (udf instanceof GenericUDFOPEqual) {
      return Optional.of(List.of(point(c)));
    }
    if (!rangesAllowed()) {
      return Optional.empty();
    }
    // with the key on the right, "c < key" is "key > c"
    boolean less = udf instanceof GenericUDFOPLessThan || udf instanceof GenericUDFOPEqualOrLessThan;
    boolean greater = udf instanceof GenericUDFOPGreaterThan || udf instanceof GenericUDFOPEqualOrGreaterThan;
    if (!less && !greater) {
      return Optional.empty();
    }
    boolean inclusive = udf instanceof GenericUDFOPEqualOrLessThan || udf instanceof GenericUDFOPEqualOrGreaterThan;
    boolean upperBound = less == keyLeft;
    return Optional.of(List.of(upperBound ? rangeTo(c, inclusive) : rangeFrom(c, inclusive)));
  }

  /** The first key after every key whose column equals the value encoded as {@code c}. */
  private byte[] after(byte[] c) {
    return key.prefixFree() ? KeyRange.prefixEnd(c) : KeyRange.successor(c);
  }

  /** The keys whose column equals the value encoded as {@code c}. */
  private KeyRange point(byte[] c) {
    return key.prefixFree() ? KeyRange.of(c, KeyRange.prefixEnd(c)) : KeyRange.point(c);
  }

  private KeyRange rangeFrom(byte[] c, boolean inclusive) {
    return KeyRange.of(inclusive ? c : after(c), null);
  }

  private KeyRange rangeTo(byte[] c, boolean inclusive) {
    return KeyRange.of(null, inclusive ? after(c) : c);
  }

  private boolean rangesAllowed() {
    return key.ordered();
  }

  private boolean isKey(ExprNodeDesc e) {
    return e instanceof ExprNodeColumnDesc && ((ExprNodeColumnDesc) e).getColumn().equals(key.name()) && key.exact();
  }

  /** The stored bytes of a constant of the key's type; null when {@code e} is not one. */
  private byte[] constant(ExprNodeDesc e) {
    Object v = constantValue(e);
    if (v == null || !(e.getTypeInfo() instanceof PrimitiveTypeInfo)
        || ((PrimitiveTypeInfo) e.getTypeInfo()).getPrimitiveCategory() != key.type().getPrimitiveCategory()) {
      return null;
    }
    return key.encode(v);
  }

  private static Object constantValue(ExprNodeDesc e) {
    return e instanceof ExprNodeConstantDesc ? ((ExprNodeConstantDesc) e).getValue() : null;
  }
}
