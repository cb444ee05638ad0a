package io.snapds.dataset.schema;

import io.snapds.dataset.SnapshotDatasetException;

/**
 * A schema, or a value checked against one, is not valid: fix the input. {@link #field()} names
 * the field concerned, or is null when the error is not about one field (a text form that does
 * not parse, for example).
 */
public class SchemaException extends SnapshotDatasetException {
  private final String field;

  public SchemaException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The field the error is about, or null. */
  public String field() {
    return field;
  }
}
