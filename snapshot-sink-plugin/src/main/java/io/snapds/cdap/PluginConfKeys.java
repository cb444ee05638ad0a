package io.snapds.cdap;

/** Keys this plugin puts into job configurations and runtime arguments. */
final class PluginConfKeys {
  /** The name of the in-process transaction client ({@link InProcessTransactionClientFactory}). */
  static final String IN_PROCESS_TX_NAME = "snapds.cdap.transaction.in-process.name";

  private PluginConfKeys() {
  }

  /** Runtime argument carrying a stage's begun snapshot from prepareRun to the tasks and onRunFinish. */
  static String handleArgument(String stageName) {
    return "snapds.sink." + stageName + ".snapshot.handle";
  }

  /** Runtime argument naming a source stage's run, under which its input files its reader pin. */
  static String sourceRunTokenArgument(String stageName) {
    return "snapds.source." + stageName + ".run.token";
  }

  /** Runtime argument set when a stage's run id was published before: nothing is written. */
  static String publishedArgument(String stageName) {
    return "snapds.sink." + stageName + ".published.snapshot";
  }

  /**
   * Runtime argument carrying, from prepareRun to the tasks, the dataset schema a sink stage's
   * snapshot records (its stored form, with ids); absent when the stage writes byte cells.
   */
  static String sinkSchemaArgument(String stageName) {
    return "snapds.sink." + stageName + ".schema";
  }

  /**
   * Runtime argument carrying, from prepareRun to the tasks, the dataset's current schema that a
   * source stage projects every snapshot's records onto; absent for a schema-less dataset.
   */
  static String sourceSchemaArgument(String stageName) {
    return "snapds.source." + stageName + ".schema";
  }

  /**
   * Runtime argument a sink that stages sets in prepareRun: the run id under which it stages a
   * snapshot of {@code dataset} in this pipeline run. CDAP carries arguments set in prepareRun to
   * the post-run actions (through the workflow token), where {@link SnapshotPublishAction} reads it.
   */
  static String stagedRunArgument(io.snapds.dataset.DatasetId dataset) {
    return "snapds.staged." + dataset + ".run.id";
  }
}
