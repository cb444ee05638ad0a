package io.snapds.cdap;

import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.schema.Schema;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * What a plugin found of its dataset when it looked: whether it exists, its column families and
 * its current schema. Immutable.
 */
public final class DatasetState {
  private final boolean exists;
  private final List<String> families;
  @Nullable
  private final Schema schema;

  private DatasetState(boolean exists, List<String> families, @Nullable Schema schema) {
    this.exists = exists;
    this.families = List.copyOf(families);
    this.schema = schema;
  }

  static DatasetState missing() {
    return new DatasetState(false, List.of(), null);
  }

  static DatasetState of(SnapshotDataset dataset) {
    return new DatasetState(true, dataset.properties().families(), dataset.schema().orElse(null));
  }

  public boolean exists() {
    return exists;
  }

  /** The dataset's column families; the first holds the cells of a schema's fields. */
  public List<String> families() {
    return families;
  }

  /** The dataset's current schema; empty when it has none (or does not exist). */
  public Optional<Schema> schema() {
    return Optional.ofNullable(schema);
  }

  @Override
  public String toString() {
    return exists ? "dataset with families " + families + (schema == null ? ", no schema" : ", schema [" + schema + "]")
        : "no dataset";
  }
}
