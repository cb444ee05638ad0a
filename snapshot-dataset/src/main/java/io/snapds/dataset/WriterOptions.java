package io.snapds.dataset;

/** What a writer was begun with; carried in a {@link SnapshotHandle} to resume it elsewhere. */
record WriterOptions(String owner, String runId, String sourceKey, String lockName, long writeBufferBytes) {}
