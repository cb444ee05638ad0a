package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.Input;
import io.cdap.cdap.api.data.batch.Output;
import io.cdap.cdap.api.data.schema.Schema;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.StageMetrics;
import io.cdap.cdap.etl.api.batch.BatchRuntimeContext;
import io.cdap.cdap.etl.api.batch.BatchSinkContext;
import io.cdap.cdap.etl.api.batch.BatchSourceContext;
import io.cdap.cdap.etl.mock.common.MockArguments;
import io.cdap.cdap.etl.mock.validation.MockFailureCollector;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A small fake of the CDAP stage contexts (BatchSinkContext, BatchSourceContext,
 * BatchRuntimeContext) with what the plugins use: stage and pipeline names, the logical start
 * time, the input schema, the failure collector, settable arguments shared between the driver
 * and the tasks (as CDAP carries prepareRun's arguments to the run), the outputs and inputs a
 * stage adds, and gauges. Every other method throws. Storage and transactions are not faked:
 * the plugins reach the real dataset through their own connection settings.
 */
final class FakeContext {
  private final String stage;
  private final String namespace;
  private final String pipeline;
  private final long logicalStartTime;
  private final Schema inputSchema;
  private final FailureCollector collector;
  private final MockArguments arguments;
  private final List<Output> outputs = new ArrayList<>();
  private final List<Input> inputs = new ArrayList<>();
  private final Map<String, Long> gauges = new HashMap<>();

  private FakeContext(Builder b) {
    this.stage = b.stage;
    this.namespace = b.namespace;
    this.pipeline = b.pipeline;
    this.logicalStartTime = b.logicalStartTime;
    this.inputSchema = b.inputSchema;
    this.collector = b.collector;
    this.arguments = new MockArguments(b.arguments);
  }

  static Builder builder() {
    return new Builder();
  }

  BatchSinkContext sinkContext() {
    return proxy(BatchSinkContext.class);
  }

  BatchSourceContext sourceContext() {
    return proxy(BatchSourceContext.class);
  }

  /** A task's context: it sees the arguments the driver set (as CDAP passes them on). */
  BatchRuntimeContext runtimeContext() {
    return proxy(BatchRuntimeContext.class);
  }

  List<Output> outputs() {
    return outputs;
  }

  List<Input> inputs() {
    return inputs;
  }

  Map<String, String> arguments() {
    return arguments.asMap();
  }

  Map<String, Long> gauges() {
    return gauges;
  }

  FailureCollector collector() {
    return collector;
  }

  private <T> T proxy(Class<T> type) {
    StageMetrics metrics = (StageMetrics) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {StageMetrics.class}, (p, m, a) -> {
          if (m.getName().equals("gauge")) {
            gauges.put((String) a[0], (Long) a[1]);
            return null;
          }
          throw new UnsupportedOperationException("FakeContext metrics: " + m.getName());
        });
    InvocationHandler handler = (p, m, a) -> {
      switch (m.getName()) {
        case "getStageName":
          return stage;
        case "getNamespace":
          return namespace;
        case "getPipelineName":
          return pipeline;
        case "getLogicalStartTime":
          return logicalStartTime;
        case "getInputSchema":
          return inputSchema;
        case "getFailureCollector":
          return collector;
        case "getArguments":
          return arguments;
        case "getMetrics":
          return metrics;
        case "isPreviewEnabled":
          return false;
        case "addOutput":
          outputs.add((Output) a[0]);
          return null;
        case "setInput":
          inputs.add((Input) a[0]);
          return null;
        case "toString":
          return "FakeContext(" + type.getSimpleName() + ", " + stage + ")";
        case "hashCode":
          return System.identityHashCode(p);
        case "equals":
          return p == a[0];
        default:
          throw new UnsupportedOperationException("FakeContext does not support " + m);
      }
    };
    return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, handler));
  }

  static final class Builder {
    private String stage = "snapshot-sink";
    private String namespace = "default";
    private String pipeline = "pipeline";
    private long logicalStartTime = 1_700_000_000_000L;
    private Schema inputSchema;
    private FailureCollector collector = new MockFailureCollector();
    private Map<String, String> arguments = new HashMap<>();

    Builder stage(String stage) {
      this.stage = stage;
      return this;
    }

    Builder pipeline(String pipeline) {
      this.pipeline = pipeline;
      return this;
    }

    Builder logicalStartTime(long time) {
      this.logicalStartTime = time;
      return this;
    }

    Builder inputSchema(Schema schema) {
      this.inputSchema = schema;
      return this;
    }

    Builder collector(FailureCollector collector) {
      this.collector = collector;
      return this;
    }

    Builder arguments(Map<String, String> arguments) {
      this.arguments = new HashMap<>(arguments);
      return this;
    }

    FakeContext build() {
      return new FakeContext(this);
    }
  }
}
