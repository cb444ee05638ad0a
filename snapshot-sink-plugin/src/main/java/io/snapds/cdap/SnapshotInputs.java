package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.InputFormatProvider;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.mapreduce.SnapshotInputFormat;
import io.snapds.dataset.mapreduce.SnapshotInputFormatImpl;
import io.snapds.dataset.read.SnapshotSelector;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** The source's input: the project's {@link SnapshotInputFormat} on one selected snapshot, one family. */
final class SnapshotInputs {
  private SnapshotInputs() {
  }

  /**
   * Reads the snapshot {@code selector} names of {@code dataset}, only the column family
   * {@code family}. The input pins it when the job computes its splits; "current" then means the
   * snapshot current while that pin holds, so every task reads that one.
   */
  static InputFormatProvider provider(ConnectionSettings settings, DatasetId dataset, SnapshotSelector selector,
      String family, String runToken) {
    Configuration conf = new Configuration(false);
    settings.asConfiguration().forEach(conf::set);
    SnapshotInputFormatImpl.setInput(conf, dataset, selector);
    SnapshotInputFormatImpl.setColumns(conf, family);
    conf.set(SnapshotInputFormatImpl.PIN_HOLDER, PipelineSnapshotInputFormat.holder(runToken));
    return new FormatProvider(PipelineSnapshotInputFormat.class.getName(), toMap(conf));
  }

  static Map<String, String> toMap(Configuration conf) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    conf.forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }
}
