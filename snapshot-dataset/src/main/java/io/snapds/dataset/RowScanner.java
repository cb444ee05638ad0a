package io.snapds.dataset;

import java.io.Closeable;
import java.util.Iterator;

/** Rows of one snapshot in key order; holds a region server scanner until closed. */
public interface RowScanner extends Iterable<SnapshotRow>, Closeable {
  @Override
  Iterator<SnapshotRow> iterator();

  @Override
  void close();
}
