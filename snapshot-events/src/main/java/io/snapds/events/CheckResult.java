package io.snapds.events;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * What one {@link AuditCheck} found about a staged snapshot: passed or failed, and why, in words a
 * person reads in the log and in the {@link AuditDecision}.
 */
public record CheckResult(boolean passed, String reason) {
  public CheckResult {
    checkArgument(reason != null && !reason.isBlank(), "a check result needs a reason, got '%s'", reason);
  }

  public static CheckResult pass(String reason) {
    return new CheckResult(true, reason);
  }

  public static CheckResult fail(String reason) {
    return new CheckResult(false, reason);
  }
}
