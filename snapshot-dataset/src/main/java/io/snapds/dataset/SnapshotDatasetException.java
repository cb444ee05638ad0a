package io.snapds.dataset;

/**
 * Base of every error this library raises on purpose. Subclasses say what the caller should do
 * next: retry ({@link CommitConflictException}, {@code LockUnavailableException}), fix the input
 * ({@link DatasetNotFoundException}, {@link SnapshotNotAvailableException}), stop
 * ({@link FencedWriterException}), or check the state before doing anything
 * ({@link CommitStateUnknownException}).
 */
public class SnapshotDatasetException extends RuntimeException {
  public SnapshotDatasetException(String message) {
    super(message);
  }

  public SnapshotDatasetException(String message, Throwable cause) {
    super(message, cause);
  }
}
