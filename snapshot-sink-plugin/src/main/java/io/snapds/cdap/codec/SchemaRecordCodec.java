package io.snapds.cdap.codec;

import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.SchemaRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CDAP records as rows in the dataset schema's encoding (the core's {@link RowCodec}: the one
 * Hive, MapReduce and the command line read), and back. The CDAP record schema and the dataset
 * schema correspond field by field, by name and {@link CdapSchemas}' type mapping; values convert
 * as {@link CdapValues} says. The key fields are the dataset schema's, in its field order.
 * Immutable and thread-safe.
 */
public final class SchemaRecordCodec {
  private final Schema cdap;
  private final RowCodec rows;

  private SchemaRecordCodec(Schema cdap, io.snapds.dataset.schema.Schema dataset, String family) {
    this.cdap = cdap;
    this.rows = new RowCodec(dataset, family);
  }

  /**
   * The codec of records of a CDAP schema, keyed by {@code keyFields}: the dataset schema is the
   * CDAP schema's ({@link CdapSchemas#schemaText}), fields numbered from 1.
   *
   * @throws IllegalArgumentException naming a field whose CDAP type has no dataset type
   * @throws io.snapds.dataset.schema.SchemaException naming a key field a key cannot have
   */
  public static SchemaRecordCodec forInput(Schema cdap, List<String> keyFields, String family) {
    return new SchemaRecordCodec(cdap, io.snapds.dataset.schema.Schema.parse(CdapSchemas.schemaText(cdap, keyFields)),
        family);
  }

  /**
   * The codec of records of a CDAP schema into a dataset schema that fits them
   * ({@link InputSchemaPlan}): each record field goes to the dataset field of its name; dataset
   * fields the record lacks are null.
   */
  public static SchemaRecordCodec forWriting(Schema cdap, io.snapds.dataset.schema.Schema dataset, String family) {
    return new SchemaRecordCodec(cdap, dataset, family);
  }

  /**
   * The codec of records of the CDAP schema {@code output} read from a dataset whose schema is
   * {@code dataset}: each output field is the dataset field of its name.
   */
  public static SchemaRecordCodec forReading(Schema output, io.snapds.dataset.schema.Schema dataset, String family) {
    return new SchemaRecordCodec(output, dataset, family);
  }

  /** The CDAP record schema (named {@code recordName}) that reads every field of a dataset schema. */
  public static Schema cdapSchemaOf(io.snapds.dataset.schema.Schema dataset, String recordName) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Field f : dataset.fields()) {
      fields.add(Schema.Field.of(f.name(), CdapSchemas.schemaOf(f.type().toString(), f.isNullable())));
    }
    return Schema.recordOf(recordName, fields);
  }

  /** The codec of a dataset schema, with the CDAP record schema named {@code recordName} it reads into. */
  public static SchemaRecordCodec forDataset(io.snapds.dataset.schema.Schema dataset, String recordName, String family) {
    return new SchemaRecordCodec(cdapSchemaOf(dataset, recordName), dataset, family);
  }

  public Schema cdapSchema() {
    return cdap;
  }

  public io.snapds.dataset.schema.Schema datasetSchema() {
    return rows.schema();
  }

  /**
   * @throws io.snapds.dataset.schema.InvalidValueException naming the field whose value does not
   *     fit (a null key, a decimal wider than its precision, a timestamp finer than microseconds)
   */
  public SnapshotRow toRow(StructuredRecord record) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Schema.Field f : cdap.getFields()) {
      Object v = record.get(f.getName());
      values.put(f.getName(), v == null ? null : CdapValues.toDataset(SchemaTypes.nonNullable(f.getSchema()), v));
    }
    return rows.encode(values);
  }

  /** @throws io.snapds.dataset.schema.InvalidValueException naming the field whose cell does not decode */
  public StructuredRecord fromRow(SnapshotRow row) {
    return fromRecord(rows.decode(row));
  }

  /**
   * The CDAP record of a dataset record whose schema has every field of this codec's CDAP schema
   * by name (a record {@link SchemaRecord#project projected} onto this codec's dataset schema).
   */
  public StructuredRecord fromRecord(SchemaRecord record) {
    StructuredRecord.Builder b = StructuredRecord.builder(cdap);
    for (Schema.Field f : cdap.getFields()) {
      Object v = record.get(f.getName());
      if (v != null) {
        b.set(f.getName(), CdapValues.toCdap(SchemaTypes.nonNullable(f.getSchema()), v));
      }
    }
    return b.build();
  }
}
