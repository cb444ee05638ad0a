package io.snapds.dataset.store;

import java.time.Duration;

/**
 * How often a metadata commit is tried after losing a race, and how long it waits in between;
 * one rule for both stores. An operation a caller asked for ({@link MetadataStore#update}) gets
 * the dataset's {@code commit.retries} with a backoff from {@link #FIRST_BACKOFF} doubling up to
 * {@link #MAX_BACKOFF}: many writers starting at once must all get through. A deferrable step
 * ({@link MetadataStore#updateDeferrable}: cleanup's bookkeeping, which the next run redoes) gets
 * at most {@link #DEFERRABLE_RETRIES} retries with a short backoff: under steady publishing it
 * would otherwise wait out the whole long budget on every run, for work that can wait.
 */
final class CommitBudget {
  /** Backoff before the first retry of either budget; it doubles on every further one. */
  static final Duration FIRST_BACKOFF = Duration.ofMillis(5);
  /** Longest backoff of an operation's budget. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(1);
  /**
   * Retries of a deferrable step, never more than the dataset's: the budget every commit had
   * before the two budgets, with which cleanup kept up with a publishing loop
   * ({@code CurrentMeansCurrentWhenPinnedIT}: 28 s). 2 retries were too few: the record of a
   * cleanup lost every race on nearly every run, the backlog of snapshots deleted but not
   * recorded grew, and each run redid more (113 s).
   */
  static final int DEFERRABLE_RETRIES = 10;
  /** Longest backoff of a deferrable step: at most about 2 s in all before it gives up. */
  static final Duration DEFERRABLE_MAX_BACKOFF = Duration.ofMillis(500);
  /** Random share of every backoff, so that writers that lost the same race do not meet again. */
  static final double JITTER = 0.25;

  private CommitBudget() {}

  /** Retries of a deferrable step on a dataset whose operations get {@code operationRetries}. */
  static int deferrableRetries(int operationRetries) {
    return Math.min(operationRetries, DEFERRABLE_RETRIES);
  }
}
