package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.OutputFormatProvider;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotHandle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** PLACEHOLDER until the mapreduce formats land: how the sink hands rows to the snapshot output format. */
final class SnapshotOutputs {
  private SnapshotOutputs() {
  }

  static OutputFormatProvider provider(ConnectionSettings settings, DatasetId dataset, Optional<SnapshotHandle> handle) {
    Map<String, String> conf = new LinkedHashMap<>(settings.asConfiguration());
    return new OutputFormatProvider() {
      @Override
      public String getOutputFormatClassName() {
        return "io.snapds.dataset.mapreduce.SnapshotOutputFormat";
      }

      @Override
      public Map<String, String> getOutputFormatConfiguration() {
        return conf;
      }
    };
  }
}
