package io.snapds.dataset.schema;

/**
 * A value does not fit its field: wrong Java class, out of the type's range (a decimal with too
 * many digits), null in a key or non-nullable field, or stored bytes that do not decode as the
 * field's type. The message names the field, the type and the value.
 */
public class InvalidValueException extends SchemaException {
  private final transient Object value;

  public InvalidValueException(String field, Object value, String message) {
    super(field, message);
    this.value = value;
  }

  /** The offending value (null when the problem is a missing value). */
  public Object value() {
    return value;
  }
}
