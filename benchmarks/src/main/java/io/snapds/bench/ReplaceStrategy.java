package io.snapds.bench;

import java.io.IOException;
import java.util.List;

/**
 * One way to replace a whole dataset with a new version, and how a reader reads it. Versions are
 * numbered labels; every value carries the label of the version that wrote it
 * ({@link RowData#label}).
 */
interface ReplaceStrategy extends AutoCloseable {
  String name();

  /** How it works, for the report. */
  String description();

  /** Creates the storage and writes version {@code label} (not measured). */
  void setUp(long rows, int label) throws IOException;

  /** Replaces the data with version {@code label}; when this returns, readers see all of it. */
  void replace(long rows, int label) throws IOException;

  /**
   * One read of {@code keys} as a reader would do it, from its own thread (the strategy gives
   * each reader thread what it needs through this call).
   */
  ReadSample read(List<byte[]> keys) throws IOException;

  /** Rows and cells a reader of the latest data sees, and what is stored, in every table used. */
  Storage storage() throws IOException;

  /** Drops what it created. */
  @Override
  void close() throws IOException;

  /** What the storage holds after the run: visible, and stored including uncompacted garbage. */
  record Storage(PlainTables.Count visible, PlainTables.Count stored, PlainTables.Count afterMajorCompaction) {}
}
