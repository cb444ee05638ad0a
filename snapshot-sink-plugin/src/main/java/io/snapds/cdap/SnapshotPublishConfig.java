package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Macro;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.etl.api.FailureCollector;
import io.snapds.dataset.DatasetId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The properties of {@link SnapshotPublishAction}: the datasets whose staged snapshots of the run
 * it publishes together, the run id they were staged under (by default what each staging sink
 * recorded), and the connection ({@link ConnectionConfig}).
 */
public class SnapshotPublishConfig extends ConnectionConfig {
  public static final String DATASETS = "datasets";
  public static final String RUN_ID = "runId";

  @Name(DATASETS)
  @Description("The datasets whose snapshots staged by this run are published together, comma-separated, each "
      + "<namespace>:<dataset> or <dataset> (namespace 'default'). Each must have been staged by this run.")
  @Macro
  String datasets;

  @Name(RUN_ID)
  @Description("The run id the snapshots were staged under. Empty: the run id each sink staging the dataset in "
      + "this pipeline run used (its 'runId', by default <namespace>.<pipeline>.<stage>.<logical start time>).")
  @Macro
  @Nullable
  String runId;

  /**
   * The datasets, in the order given.
   *
   * @throws IllegalArgumentException naming the bad entry, or the one given twice
   */
  public List<DatasetId> datasets() {
    Set<DatasetId> out = new LinkedHashSet<>();
    if (datasets != null) {
      for (String entry : datasets.split(",")) {
        if (entry.isBlank()) {
          continue;
        }
        DatasetId id;
        try {
          id = DatasetId.parse(entry.trim());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("invalid dataset '" + entry.trim() + "': " + e.getMessage(), e);
        }
        if (!out.add(id)) {
          throw new IllegalArgumentException("dataset '" + id + "' is listed twice: a publish group publishes one "
              + "snapshot per dataset");
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** The configured run id, if any. */
  public Optional<String> runId() {
    return Optional.ofNullable(emptyToNull(runId));
  }

  /** Reports every bad value to {@code collector}, each naming its property; macros are checked at runtime. */
  public void validate(FailureCollector collector) {
    if (!containsMacro(DATASETS)) {
      try {
        if (datasets().isEmpty()) {
          collector.addFailure("No dataset to publish.", "Set 'datasets' to the staged datasets, for example "
              + "default:orders,default:order_lines.").withConfigProperty(DATASETS);
        }
      } catch (IllegalArgumentException e) {
        collector.addFailure("Invalid datasets: " + e.getMessage() + ".", "List <namespace>:<dataset> or <dataset>, "
            + "each once, separated by commas.").withConfigProperty(DATASETS);
      }
    }
    if (!containsMacro(RUN_ID) && runId != null && runId.length() > SnapshotSinkConfig.MAX_ID_LENGTH) {
      collector.addFailure("Run id is " + runId.length() + " characters long, over "
          + SnapshotSinkConfig.MAX_ID_LENGTH + ".", "Shorten 'runId'.").withConfigProperty(RUN_ID);
    }
    validateConnection(collector);
  }
}
