package io.snapds.hive;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.hive.ql.udf.UDFType;

/**
 * {@code gate(x)} returns x; once armed, its first call stops the query (inside the map task)
 * until the test opens the gate, so that the test can change the dataset while the query runs.
 */
@UDFType(deterministic = false)
public class GateUdf extends UDF {
  private static final AtomicBoolean ARMED = new AtomicBoolean();
  private static volatile CountDownLatch reached = new CountDownLatch(1);
  private static volatile CountDownLatch open = new CountDownLatch(1);

  static void arm() {
    reached = new CountDownLatch(1);
    open = new CountDownLatch(1);
    ARMED.set(true);
  }

  /** Waits until a query has reached the gate. */
  static void awaitReached() throws InterruptedException {
    if (!reached.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("no query reached the gate");
    }
  }

  static void open() {
    open.countDown();
  }

  public String evaluate(String x) throws InterruptedException {
    if (ARMED.compareAndSet(true, false)) {
      reached.countDown();
      if (!open.await(120, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the gate was never opened");
      }
    }
    return x;
  }
}
