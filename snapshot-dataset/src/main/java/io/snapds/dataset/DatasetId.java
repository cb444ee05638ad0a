package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableName;

/**
 * Names one snapshot dataset: an HBase namespace and a dataset name. The dataset's three tables
 * are {@code namespace:name.data}, {@code namespace:name.meta} and {@code namespace:name.lock}.
 */
public final class DatasetId {
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9_]{1,64}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]{0,127}");

  private final String namespace;
  private final String name;

  private DatasetId(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
  }

  /**
   * @throws IllegalArgumentException if the namespace is not 1-64 of {@code [A-Za-z0-9_]} or the
   *     name is not 1-128 of {@code [A-Za-z0-9_-]} starting with a letter, digit or underscore
   */
  public static DatasetId of(String namespace, String name) {
    checkNotNull(namespace, "namespace must not be null");
    checkNotNull(name, "dataset name must not be null");
    checkArgument(NAMESPACE.matcher(namespace).matches(),
        "invalid namespace '%s': use 1-64 letters, digits or '_'", namespace);
    checkArgument(NAME.matcher(name).matches(),
        "invalid dataset name '%s': use 1-128 letters, digits, '_' or '-', not starting with '-'", name);
    return new DatasetId(namespace, name);
  }

  /** Parses {@code namespace:name}, or {@code name} in the {@code default} namespace. */
  public static DatasetId parse(String qualified) {
    checkNotNull(qualified, "dataset must not be null");
    int colon = qualified.indexOf(':');
    return colon < 0 ? of("default", qualified)
        : of(qualified.substring(0, colon), qualified.substring(colon + 1));
  }

  public String namespace() {
    return namespace;
  }

  public String name() {
    return name;
  }

  public TableName dataTable() {
    return table("data");
  }

  public TableName metaTable() {
    return table("meta");
  }

  public TableName lockTable() {
    return table("lock");
  }

  private TableName table(String suffix) {
    return TableName.valueOf(namespace, name + "." + suffix);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DatasetId other && namespace.equals(other.namespace) && name.equals(other.name);
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespace, name);
  }

  @Override
  public String toString() {
    return namespace + ":" + name;
  }
}
