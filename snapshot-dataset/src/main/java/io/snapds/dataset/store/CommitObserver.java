package io.snapds.dataset.store;

/**
 * Told of each metadata commit of one dataset, for its metrics: what the commit path already
 * knows (how many attempts, how many lost the conflict check, how long it took), never anything
 * read for the purpose. Implementations must be cheap and must not throw.
 */
public interface CommitObserver {
  /** Observes nothing. */
  CommitObserver NONE = new CommitObserver() {
    @Override
    public void conflicted() {}

    @Override
    public void finished(long nanos, int attempts, boolean committed) {}
  };

  /** One attempt lost Tephra's conflict check (it is retried afresh if the budget allows). */
  void conflicted();

  /**
   * One update ended after {@code attempts} attempts (so {@code attempts - 1} retries) and
   * {@code nanos} nanoseconds in all; {@code committed} when it committed or changed nothing.
   */
  void finished(long nanos, int attempts, boolean committed);
}
