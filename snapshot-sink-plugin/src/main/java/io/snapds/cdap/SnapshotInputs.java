package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.InputFormatProvider;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotRow;
import java.util.LinkedHashMap;
import java.util.Map;

/** PLACEHOLDER until the mapreduce formats land. */
final class SnapshotInputs {
  private SnapshotInputs() {
  }

  static InputFormatProvider provider(ConnectionSettings settings, DatasetId dataset, SnapshotId snapshot, String family) {
    Map<String, String> conf = new LinkedHashMap<>(settings.asConfiguration());
    return new InputFormatProvider() {
      @Override
      public String getInputFormatClassName() {
        return "io.snapds.dataset.mapreduce.SnapshotInputFormat";
      }

      @Override
      public Map<String, String> getInputFormatConfiguration() {
        return conf;
      }
    };
  }

  static SnapshotRow row(Object value) {
    return (SnapshotRow) value;
  }
}
