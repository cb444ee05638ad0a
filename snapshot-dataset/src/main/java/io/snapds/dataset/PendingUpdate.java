package io.snapds.dataset;

/**
 * A metadata change in preparation, after Iceberg's {@code PendingUpdate}: configure it, look at
 * what it would do with {@link #apply()}, then {@link #commit()}. Validation runs against the
 * latest metadata inside both, and again on every retry of a commit that lost a race.
 *
 * @param <T> what the change produces
 */
public interface PendingUpdate<T> {
  /** What {@link #commit()} would produce now, without changing anything. */
  T apply();

  /**
   * Applies the change atomically.
   *
   * @throws IllegalArgumentException if the change is not valid against the latest metadata
   * @throws CommitConflictException if concurrent changes kept winning (retryable)
   * @throws CommitStateUnknownException if the outcome is unknown
   */
  T commit();
}
