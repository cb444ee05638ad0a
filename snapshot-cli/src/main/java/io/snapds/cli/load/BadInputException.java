package io.snapds.cli.load;

/** A line of the input that cannot be loaded: its number and why. */
public final class BadInputException extends Exception {
  private final long line;
  private final String reason;

  public BadInputException(long line, String reason) {
    super("line " + line + ": " + reason);
    this.line = line;
    this.reason = reason;
  }

  public long line() {
    return line;
  }

  public String reason() {
    return reason;
  }
}
