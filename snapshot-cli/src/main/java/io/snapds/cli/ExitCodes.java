package io.snapds.cli;

/** What the exit code of a command says; documented in the module's README. */
public final class ExitCodes {
  public static final int OK = 0;
  /** The operation failed (a conflict, a lock not available, an unexpected error). */
  public static final int FAILED = 1;
  /** Wrong arguments or option values. */
  public static final int USAGE = 2;
  /** The dataset, snapshot or tag asked for does not exist or cannot be read. */
  public static final int NOT_FOUND = 3;
  /** The input file cannot be read or has a bad line; nothing was published. */
  public static final int BAD_INPUT = 4;
  /** HBase or the transaction service cannot be reached or failed. */
  public static final int UNAVAILABLE = 5;
  /** The demo's reader saw an inconsistent snapshot. */
  public static final int INCONSISTENT = 6;
  /** HBase's access control refused: the message names the role to ask for. */
  public static final int DENIED = 7;
  /** {@code status}: something needs a repair or a person (the output says what). */
  public static final int ATTENTION = 8;

  private ExitCodes() {}
}
