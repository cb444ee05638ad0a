package io.snapds.dataset.store;

/** A truncate's steps in the metadata and its mark on the pointer row ({@code trunc}, #36). */
public interface TruncationView {
  /**
   * The first step of a truncate: deletes every snapshot record, index, tag, run and source name,
   * the history and the schemas, clears the current pointer, writes the TRUNCATED event and marks
   * the dataset as being truncated (no snapshot begins until {@link #finishTruncate}). Keeps the
   * key number counter, the fences, the outbox and the delivered positions, so that nothing a
   * process of the earlier incarnation holds (a key range, a lock token, an event sequence) is
   * given again. Returns the mark: this transaction's write pointer, above the id of every
   * snapshot the dataset had.
   */
  long resetForTruncate();

  /** The mark of a truncate in progress (or cut off): {@link #resetForTruncate()}'s value; 0 if none. */
  long truncating();

  /** The last step of a truncate: snapshots may begin again. No-op unless {@code truncation} is the mark. */
  void finishTruncate(long truncation);
}
