package io.snapds.dataset.admin;

import java.io.IOException;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The lifecycle of one table of a dataset. {@link CompositeDatasetAdmin} forwards each operation
 * to the admin of every part, the way CDAP's composite dataset admin does.
 */
@InterfaceAudience.Private
public interface TableAdmin {
  boolean exists() throws IOException;

  void create() throws IOException;

  /** Removes every row, keeping the table and its settings. */
  void truncate() throws IOException;

  /** Brings the table's settings (families, versions) to what this version of the library wants. */
  void upgrade() throws IOException;

  void drop() throws IOException;
}
