package io.snapds.dataset.mapreduce;

import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * One row of a snapshot together with the schema that snapshot was written with: the value
 * {@link SnapshotRecordInputFormat} hands to mappers. {@link #record()} gives the row as typed
 * values looked up by name ({@link SchemaRecord#getLong}, {@link SchemaRecord#getDecimal}, ...),
 * decoded with the snapshot's own schema, so every snapshot reads with the schema it was written
 * with; {@link #row()} gives the raw row, as {@link SnapshotRowWritable} does. A row of a
 * schema-less snapshot has no record ({@link #schema()} is empty).
 *
 * <p>Mutable only through {@link #set} and {@link #readFields}, as Writables are reused by the
 * framework; the record is decoded once per row, when first asked for.
 */
public final class SnapshotRecordWritable implements Writable {
  private final SnapshotRowWritable row = new SnapshotRowWritable();
  private RowCodec codec;
  private String family;
  private SchemaRecord record;

  /** For the framework; {@link #row} fails until {@link #set} or {@link #readFields}. */
  public SnapshotRecordWritable() {}

  /**
   * @param row the row
   * @param schema the schema of the row's snapshot; null for a schema-less snapshot
   * @param family the column family of the schema's cells (the dataset's first)
   */
  public SnapshotRecordWritable(SnapshotRow row, Schema schema, String family) {
    set(row, schema, family);
  }

  /** Replaces the row, and the schema of its snapshot (null for a schema-less one) with its family. */
  public void set(SnapshotRow row, Schema schema, String family) {
    this.row.set(row);
    if (schema == null) {
      this.codec = null;
    } else if (codec == null || !codec.schema().equals(schema) || !family.equals(this.family)) {
      this.codec = new RowCodec(schema, family);
    }
    this.family = family;
    this.record = null;
  }

  /** The raw row (its key is the user's key, without the snapshot prefix). */
  public SnapshotRow row() {
    return row.get();
  }

  /** The schema the row's snapshot was written with; empty for a schema-less snapshot. */
  public Optional<Schema> schema() {
    return codec == null ? Optional.empty() : Optional.of(codec.schema());
  }

  /**
   * The row as a record of its snapshot's schema.
   *
   * @throws IllegalStateException for a row of a schema-less snapshot
   * @throws io.snapds.dataset.schema.InvalidValueException naming the field whose stored bytes do
   *     not decode as its type
   */
  public SchemaRecord record() {
    checkState(codec != null, "row %s is of a schema-less snapshot: read its cells with row()", row);
    if (record == null) {
      record = codec.decode(row.get());
    }
    return record;
  }

  /**
   * The row as a record of {@code schema}, another schema of the same dataset (its current one,
   * or a {@link Schema#select selection}): matched by field id ({@link SchemaRecord#project}).
   */
  public SchemaRecord record(Schema schema) {
    return record().project(schema);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    row.write(out);
    out.writeBoolean(codec != null);
    if (codec != null) {
      WritableUtils.writeString(out, codec.schema().toStringWithIds());
      WritableUtils.writeString(out, family);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    row.readFields(in);
    if (in.readBoolean()) {
      Schema schema = Schema.parse(WritableUtils.readString(in));
      family = WritableUtils.readString(in);
      codec = new RowCodec(schema, family);
    } else {
      codec = null;
      family = null;
    }
    record = null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SnapshotRecordWritable other && row.equals(other.row) && schema().equals(other.schema());
  }

  @Override
  public int hashCode() {
    return row.hashCode();
  }

  @Override
  public String toString() {
    return codec == null ? row.toString() : record().toString();
  }
}
