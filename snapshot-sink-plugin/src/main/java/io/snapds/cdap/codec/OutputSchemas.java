package io.snapds.cdap.codec;

import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.cdap.codec.InputSchemaPlan.Problem;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which CDAP output schemas a source can read a dataset schema into: every output field a field
 * of the dataset of that name, of the CDAP type that dataset type reads back as
 * ({@link CdapSchemas#schemaOf}; a timestamptz also as timestamp-micros only), nullable if the
 * dataset field is.
 */
public final class OutputSchemas {
  private OutputSchemas() {}

  /** Why records of {@code output} cannot be read from {@code dataset}, one problem per field; empty when they can. */
  public static List<Problem> problems(Schema output, io.snapds.dataset.schema.Schema dataset) {
    List<Problem> problems = new ArrayList<>();
    for (Schema.Field out : output.getFields()) {
      String name = out.getName();
      Optional<Field> field = dataset.findField(name);
      if (field.isEmpty()) {
        problems.add(new Problem(name, "unknown column '" + name + "': the dataset's schema has no such field (it has "
            + dataset.fields().stream().map(Field::name).toList() + ")"));
        continue;
      }
      Type type = field.get().type();
      Schema expected = CdapSchemas.schemaOf(type.toString(), false);
      if (!SchemaTypes.nonNullable(out.getSchema()).equals(expected)) {
        problems.add(new Problem(name, "output field '" + name + "' is " + SchemaTypes.describe(out.getSchema())
            + ", but the dataset's field is " + type + ", which reads as " + SchemaTypes.describe(expected)));
      } else if (field.get().isNullable() && !out.getSchema().isNullable()) {
        problems.add(new Problem(name, "output field '" + name + "' is not nullable, but the dataset's field may be "
            + "null"));
      }
    }
    return problems;
  }
}
