package io.snapds.cli;

import io.snapds.cli.output.RowPrinter;
import io.snapds.cli.output.ValueText;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.schema.Field;
import io.snapds.dataset.schema.KeyCodec;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How {@code scan} and {@code get} read one snapshot: with the schema it was written with, when it
 * has one (keys given as typed values, {@code --columns} naming fields, rows printed typed), else
 * as raw bytes (keys in {@code Bytes.toBytesBinary} form, {@code --columns family[:qualifier]}).
 */
final class TypedRead {
  /** Joins the values of several key fields on the command line: {@code 2026-11-30|42}. */
  static final String KEY_SEPARATOR = "|";

  private final Optional<Schema> schema;
  private final Optional<RowCodec> codec;
  private final List<String> columns;

  private TypedRead(Optional<Schema> schema, String family, List<String> columns) {
    this.schema = schema;
    this.columns = columns;
    // a projection keeps the key fields; an unknown name is an UnknownFieldException
    this.codec = schema.map(s -> new RowCodec(columns.isEmpty() ? s : s.select(columns), family));
  }

  /** For the snapshot {@code reader} reads, projected onto {@code columns} (empty: all). */
  static TypedRead of(SnapshotDataset ds, SnapshotReader reader, List<String> columns) {
    return new TypedRead(ds.schema(reader.snapshotId()), ds.properties().defaultFamily(), columns);
  }

  /** For turning command-line keys into row keys only, with {@code schema} (empty: raw keys). */
  static TypedRead keysOf(Optional<Schema> schema) {
    return new TypedRead(schema, "", List.of());
  }

  /** A scan of everything, projected onto the columns of a raw snapshot (a typed one decodes what it needs). */
  RowScan scan() {
    return schema.isPresent() ? RowScan.all() : Columns.project(RowScan.all(), columns);
  }

  RowPrinter printer(PrintWriter out, boolean json) {
    return RowPrinter.of(out, json, codec);
  }

  /** The row key a command-line key stands for (a typed key: every key field's value). */
  byte[] key(String text) {
    return schema.isEmpty() ? Bytes.toBytesBinary(text) : keys().encode(keyValues(text, true));
  }

  /** The key prefix a command-line key stands for (a typed one may give the first key fields only). */
  byte[] keyPrefix(String text) {
    return schema.isEmpty() ? Bytes.toBytesBinary(text) : keys().encodePrefix(keyValues(text, false));
  }

  private KeyCodec keys() {
    return new KeyCodec(schema.orElseThrow());
  }

  private List<Object> keyValues(String text, boolean all) {
    List<Field> keyFields = schema.orElseThrow().keyFields();
    // the last field given takes the rest of the text, so a single string key may hold the separator
    List<String> parts = keyFields.size() == 1 ? List.of(text)
        : List.of(text.split(java.util.regex.Pattern.quote(KEY_SEPARATOR), keyFields.size()));
    if (all && parts.size() != keyFields.size()) {
      throw new IllegalArgumentException("key '" + text + "' gives " + parts.size() + " of the key fields "
          + keyFields.stream().map(Field::name).toList() + ": give all, joined by '" + KEY_SEPARATOR + "'");
    }
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      values.add(ValueText.parse(keyFields.get(i), parts.get(i)));
    }
    return values;
  }
}
