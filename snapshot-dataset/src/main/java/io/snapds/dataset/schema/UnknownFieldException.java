package io.snapds.dataset.schema;

/** A record, a projection or a lookup named a field the schema does not have. */
public class UnknownFieldException extends SchemaException {
  public UnknownFieldException(String field, Schema schema) {
    super(field, "unknown field '" + field + "' (schema: " + schema + ")");
  }
}
