package io.snapds.cli.load;

import io.snapds.cli.output.ValueText;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaException;
import io.snapds.dataset.schema.SchemaRecord;
import java.util.Map;

/**
 * A record of a dataset with a schema: each field's text is parsed as its field's type
 * ({@link ValueText#parse}) and the row is written in the schema's encoding ({@link RowCodec}:
 * the key fields form the row key, every other non-null field is one cell). A field the schema
 * does not have, a value that does not parse or fit, and a null key or non-null field are bad
 * input naming the line, the field and the type; a schema field missing from the record is null.
 */
public final class SchemaMapping implements RecordMapping {
  private final RowCodec codec;

  public SchemaMapping(Schema schema, String family) {
    this.codec = new RowCodec(schema, family);
  }

  @Override
  public void write(InputRecord r, SnapshotWriter writer) throws BadInputException {
    Schema schema = codec.schema();
    SchemaRecord.Builder b = SchemaRecord.builder(schema);
    try {
      for (Map.Entry<String, String> e : r.fields().entrySet()) {
        Field f = schema.findField(e.getKey()).orElseThrow(() -> new BadInputException(r.line(),
            "field '" + e.getKey() + "' is not in the dataset's schema [" + schema + "]"));
        b.set(f.name(), ValueText.parse(f, e.getValue()));
      }
      writer.put(codec.encode(b.build()));
    } catch (SchemaException | IllegalArgumentException e) {
      throw new BadInputException(r.line(), e.getMessage());
    }
  }

  @Override
  public boolean emptyIsNull() {
    return true;
  }
}
