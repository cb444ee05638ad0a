package io.snapds.cli;

import io.snapds.cli.env.EnvironmentException;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.SnapshotNotAvailableException;
import io.snapds.dataset.StorageException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every error into one line on stderr and an exit code ({@link ExitCodes}); the stack
 * trace only with {@code --verbose}.
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private final SnapdsCommand root;

  ErrorReporter(SnapdsCommand root) {
    this.root = root;
  }

  @Override
  public int handleParseException(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("snapds: " + e.getMessage() + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
    if (root.verbose()) {
      e.printStackTrace(err);
    }
    err.flush();
    return ExitCodes.USAGE;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    err.println("snapds: " + message(e));
    if (root.verbose()) {
      e.printStackTrace(err);
    }
    err.flush();
    return exitCode(e);
  }

  static int exitCode(Throwable e) {
    if (e instanceof UserException u) {
      return u.exitCode();
    }
    if (e instanceof io.snapds.dataset.AccessDeniedException) {
      return ExitCodes.DENIED;
    }
    if (e instanceof io.snapds.dataset.SnapshotStateException) {
      return ExitCodes.FAILED; // it exists; its state refuses the operation, as a conflict would
    }
    if (e instanceof DatasetNotFoundException || e instanceof SnapshotNotAvailableException) {
      return ExitCodes.NOT_FOUND;
    }
    if (e instanceof EnvironmentException || e instanceof StorageException) {
      return ExitCodes.UNAVAILABLE;
    }
    if (e instanceof IllegalArgumentException || e instanceof io.snapds.dataset.schema.SchemaException) {
      return ExitCodes.USAGE;
    }
    return ExitCodes.FAILED;
  }

  static String message(Throwable e) {
    if (e instanceof RuntimeException && e.getMessage() != null
        && (e instanceof UserException || e instanceof EnvironmentException
            || e instanceof io.snapds.dataset.SnapshotDatasetException || e instanceof IllegalArgumentException
            || e instanceof IllegalStateException)) {
      return firstLine(e.getMessage());
    }
    return "unexpected error: " + e.getClass().getName() + (e.getMessage() == null ? "" : ": "
        + firstLine(e.getMessage())) + " (--verbose shows the stack trace)";
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
