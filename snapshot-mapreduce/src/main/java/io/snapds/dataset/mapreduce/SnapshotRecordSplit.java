package io.snapds.dataset.mapreduce;

import io.snapds.dataset.schema.Schema;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A {@link SnapshotSplit} with the schema its snapshot was written with (and the column family of
 * the schema's cells), so that a task decodes typed records without reading the dataset's
 * metadata: the schema is read once, where the splits are computed.
 */
@InterfaceAudience.Private
public final class SnapshotRecordSplit extends InputSplit implements Writable {
  private final SnapshotSplit split;
  private String schema;
  private String family;

  /** For the framework, which fills it with {@link #readFields}. */
  public SnapshotRecordSplit() {
    this.split = new SnapshotSplit();
  }

  /**
   * @param schema the snapshot's schema; null for a schema-less snapshot
   * @param family the dataset's first column family
   */
  public SnapshotRecordSplit(SnapshotSplit split, Schema schema, String family) {
    this.split = split;
    this.schema = schema == null ? null : schema.toStringWithIds();
    this.family = family;
  }

  public SnapshotSplit split() {
    return split;
  }

  /** The schema the snapshot was written with; empty for a schema-less snapshot. */
  public Optional<Schema> schema() {
    return schema == null ? Optional.empty() : Optional.of(Schema.parse(schema));
  }

  public String family() {
    return family;
  }

  @Override
  public long getLength() {
    return split.getLength();
  }

  @Override
  public String[] getLocations() {
    return split.getLocations();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    split.write(out);
    WritableUtils.writeString(out, family);
    out.writeBoolean(schema != null);
    if (schema != null) {
      WritableUtils.writeString(out, schema);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    split.readFields(in);
    family = WritableUtils.readString(in);
    schema = in.readBoolean() ? WritableUtils.readString(in) : null;
  }

  @Override
  public String toString() {
    return split + (schema == null ? " (schema-less)" : " with schema [" + schema + "]");
  }
}
