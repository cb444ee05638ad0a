package io.snapds.hive;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.hive.ql.udf.UDFType;

/** {@code fail_on(x, bad)} returns x, and fails the task when x equals bad. */
@UDFType(deterministic = false)
public class FailUdf extends UDF {
  public String evaluate(String x, String bad) {
    if (x != null && x.equals(bad)) {
      throw new IllegalStateException("fail_on: failing the task at row " + x + " as the test asked");
    }
    return x;
  }
}
