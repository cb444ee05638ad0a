package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.OutputFormatProvider;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotHandle;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.mapreduce.SnapshotOutputFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** The sink's output: {@link PipelineSnapshotOutputFormat} on the snapshot prepareRun began. */
final class SnapshotOutputs {
  private SnapshotOutputs() {
  }

  /** Tasks write into {@code handle}'s snapshot of {@code dataset}. */
  static OutputFormatProvider writing(ConnectionSettings settings, DatasetId dataset, SnapshotHandle handle) {
    Map<String, String> conf = base(settings, dataset);
    conf.put(SnapshotOutputFormat.HANDLE, handle.encode());
    return new FormatProvider(PipelineSnapshotOutputFormat.class.getName(), conf);
  }

  /** The run was published before as {@code published}: tasks discard their rows. */
  static OutputFormatProvider discarding(ConnectionSettings settings, DatasetId dataset, SnapshotId published) {
    Map<String, String> conf = base(settings, dataset);
    conf.put(SnapshotOutputFormat.ALREADY_PUBLISHED, published.toString());
    return new FormatProvider(PipelineSnapshotOutputFormat.class.getName(), conf);
  }

  private static Map<String, String> base(ConnectionSettings settings, DatasetId dataset) {
    Map<String, String> conf = new LinkedHashMap<>(settings.asConfiguration());
    conf.put(SnapshotOutputFormat.DATASET, dataset.toString());
    return conf;
  }
}
