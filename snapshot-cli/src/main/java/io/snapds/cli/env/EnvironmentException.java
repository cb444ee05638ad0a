package io.snapds.cli.env;

/**
 * The environment could not be opened: an unreachable cluster, a home directory in use by another
 * process, options that name no transaction service. The message says what to do.
 */
public final class EnvironmentException extends RuntimeException {
  public EnvironmentException(String message) {
    super(message);
  }

  public EnvironmentException(String message, Throwable cause) {
    super(message, cause);
  }
}
