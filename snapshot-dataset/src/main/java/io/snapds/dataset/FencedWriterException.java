package io.snapds.dataset;

/**
 * This writer's lock lease was taken over by another writer (it expired while this writer was
 * stalled or dead), so this writer may no longer publish. Stop: someone else owns the dataset.
 * The snapshot is aborted and its rows are removed by cleanup.
 */
public class FencedWriterException extends SnapshotDatasetException {
  private final SnapshotId snapshot;
  private final long token;
  private final long newerToken;

  public FencedWriterException(DatasetId dataset, SnapshotId snapshot, long token, long newerToken) {
    super("writer of snapshot " + snapshot + " on dataset " + dataset + " was fenced: it holds token "
        + token + " but token " + newerToken + " was granted since");
    this.snapshot = snapshot;
    this.token = token;
    this.newerToken = newerToken;
  }

  public SnapshotId snapshot() {
    return snapshot;
  }

  public long token() {
    return token;
  }

  public long newerToken() {
    return newerToken;
  }
}
