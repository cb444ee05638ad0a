package io.snapds.cli;

import io.snapds.cli.server.Environments;
import picocli.CommandLine;

/** The launcher's entry point: {@code snapds <command> ...}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    CommandLine commandLine = SnapdsCommand.commandLine(Environments.standard());
    logTo(commandLine, args);
    System.exit(commandLine.execute(args));
  }

  /**
   * Points the log file at the home directory before anything logs: HBase and Tephra write there,
   * never to the terminal.
   */
  private static void logTo(CommandLine commandLine, String[] args) {
    if (System.getProperty("snapds.log.dir") != null) {
      return;
    }
    SnapdsCommand root = commandLine.getCommand();
    try {
      commandLine.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      // execute() reports it
    }
    System.setProperty("snapds.log.dir", root.environmentOptions().home().resolve("logs").toString());
  }
}
