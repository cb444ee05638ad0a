package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.annotation.Plugin;
import io.cdap.cdap.etl.api.FailureCollector;
import io.cdap.cdap.etl.api.PipelineConfigurer;
import io.cdap.cdap.etl.api.batch.BatchActionContext;
import io.cdap.cdap.etl.api.batch.PostAction;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.PublishGroup;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.tx.JobDatasets;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A post-run action that publishes, together, the snapshots that this pipeline run's sinks staged
 * ({@code publishMode} = {@code stage}): every listed dataset becomes current in one transaction,
 * or none does, so a reader that reads them together never sees new orders with old order lines.
 * Between the sinks' stage and this action, other stages or actions can check the staged snapshots
 * (they are readable by id).
 *
 * <p>It runs after a successful run only (after a failed one the sinks aborted their snapshots).
 * For each dataset it finds the snapshot of the run ({@link SnapshotDataset#snapshotForRun}) under
 * the run id the staging sink recorded in the run's arguments (or the configured {@code runId});
 * if a dataset has none (not staged by this run, or discarded), it publishes nothing and fails,
 * naming every such dataset. The group's id is derived from the run id, and a group whose members
 * were published already changes nothing, so a re-run of the same logical run publishes once.
 *
 * <p>CDAP 6.11 logs a post-run action's failure ("Error while running post action") but does not
 * change the run's status: the staged snapshots stay staged, readable by id, not current.
 */
@Plugin(type = PostAction.PLUGIN_TYPE)
@Name(SnapshotPublishAction.NAME)
@Description("Publishes the snapshots that this run's SnapshotDataset sinks staged, all together in one "
    + "transaction: every listed dataset becomes current, or none does.")
public class SnapshotPublishAction extends PostAction {
  public static final String NAME = "SnapshotPublish";
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotPublishAction.class);
  private static final Pattern NOT_IN_GROUP_ID = Pattern.compile("[^A-Za-z0-9._:-]");
  private static final int MAX_GROUP_ID = 128;

  private final SnapshotPublishConfig config;

  public SnapshotPublishAction(SnapshotPublishConfig config) {
    this.config = config;
  }

  @Override
  public void configurePipeline(PipelineConfigurer pipelineConfigurer) {
    FailureCollector collector = pipelineConfigurer.getStageConfigurer().getFailureCollector();
    config.validate(collector);
    collector.getOrThrowException();
  }

  @Override
  public void run(BatchActionContext context) {
    if (!context.isSuccessful()) {
      LOG.info("Stage {}: the run failed; nothing is published (its sinks aborted their snapshots)",
          context.getStageName());
      return;
    }
    FailureCollector collector = context.getFailureCollector();
    config.validate(collector);
    collector.getOrThrowException();

    Map<DatasetId, String> runIds = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (DatasetId id : config.datasets()) {
      Optional<String> runId = config.runId().or(() ->
          Optional.ofNullable(context.getArguments().get(PluginConfKeys.stagedRunArgument(id))));
      if (runId.isPresent()) {
        runIds.put(id, runId.get());
      } else {
        problems.add("no sink of this run staged dataset " + id + " (no sink with publishMode 'stage' writes it)");
      }
    }
    String groupId = groupId(config.runId().orElse(context.getNamespace() + "." + context.getPipelineName() + "."
        + context.getStageName() + "." + context.getLogicalStartTime()));
    JobDatasets connection = config.connectionSettings().open();
    List<SnapshotDataset> opened = new ArrayList<>();
    try {
      SnapshotDatasets datasets = connection.datasets();
      PublishGroup group = datasets.publishTogether().id(groupId);
      for (Map.Entry<DatasetId, String> e : runIds.entrySet()) {
        DatasetId id = e.getKey();
        String runId = e.getValue();
        if (!datasets.exists(id)) {
          problems.add("dataset " + id + " does not exist");
          continue;
        }
        SnapshotDataset dataset = datasets.open(id);
        opened.add(dataset);
        Optional<SnapshotInfo> staged = dataset.snapshotForRun(runId);
        if (staged.isEmpty()) {
          problems.add("dataset " + id + " has no snapshot staged for run '" + runId + "'");
        } else if (staged.get().state() != SnapshotState.STAGED && staged.get().committedAt().isEmpty()) {
          problems.add("the snapshot " + staged.get().id() + " of dataset " + id + " for run '" + runId + "' is "
              + staged.get().state() + ", not STAGED");
        } else {
          group.staged(dataset, staged.get().id());
        }
      }
      if (!problems.isEmpty()) {
        throw new IllegalStateException("Stage " + context.getStageName() + " published nothing (publish group "
            + groupId + "): " + String.join("; ", problems));
      }
      Map<DatasetId, SnapshotInfo> published = group.publish();
      published.forEach((id, info) -> LOG.info("Stage {}: snapshot {} of {} (run '{}') is published, in publish "
          + "group {}", context.getStageName(), info.id(), id, runIds.get(id), groupId));
    } finally {
      opened.forEach(SnapshotDataset::close); // before the connection they were opened on
      ConnectionSettings.close(connection);
    }
  }

  /**
   * The publish group's id for a run id: the run id with every character a group id may not hold
   * replaced by '_'; a longer one is cut and ends with a hash of the whole run id, so the same run
   * id always gives the same group id.
   */
  static String groupId(String runId) {
    String id = "cdap:" + NOT_IN_GROUP_ID.matcher(runId).replaceAll("_");
    if (id.length() <= MAX_GROUP_ID) {
      return id;
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(runId.getBytes(StandardCharsets.UTF_8));
      String suffix = "-" + HexFormat.of().formatHex(hash, 0, 8);
      return id.substring(0, MAX_GROUP_ID - suffix.length()) + suffix;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
