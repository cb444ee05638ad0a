package io.snapds.cdap;

/** Keys this plugin puts into job configurations and runtime arguments. */
final class PluginConfKeys {
  /** The transaction service ({@link TransactionServiceSpec}) tasks and drivers use. */
  static final String TRANSACTION_SERVICE = "snapds.cdap.transaction.service";

  private PluginConfKeys() {
  }

  /** Runtime argument carrying a stage's begun snapshot from prepareRun to the tasks and onRunFinish. */
  static String handleArgument(String stageName) {
    return "snapds.sink." + stageName + ".snapshot.handle";
  }

  /** Runtime argument set when a stage's run id was published before: nothing is written. */
  static String publishedArgument(String stageName) {
    return "snapds.sink." + stageName + ".published.snapshot";
  }
}
