package io.snapds.cli;

/**
 * An error to show the user as one line, with the exit code that says what kind it is: thrown by
 * commands for problems they find themselves (a file that cannot be read, a bad input line).
 */
public class UserException extends RuntimeException {
  private final int exitCode;

  public UserException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public UserException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
