package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionCodec;

/**
 * Everything needed to carry on a begun snapshot in another process or later: its id, the
 * building transaction, the writer lock's lease and the options it was begun with. A MapReduce
 * job begins a snapshot when it is submitted, {@linkplain SnapshotWriter#detach() detaches} it,
 * stores the handle's string form in the job configuration, and its tasks and committer work
 * from it.
 */
public final class SnapshotHandle {
  private static final int VERSION = 1;
  private static final TransactionCodec CODEC = new TransactionCodec();

  final SnapshotId snapshot;
  final Transaction buildTx;
  final WriterOptions options;
  final long token;

  SnapshotHandle(SnapshotId snapshot, Transaction buildTx, WriterOptions options, long token) {
    this.snapshot = snapshot;
    this.buildTx = buildTx;
    this.options = options;
    this.token = token;
  }

  public SnapshotId snapshotId() {
    return snapshot;
  }

  /** A string safe for a Hadoop configuration value. */
  public String encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(VERSION);
      out.writeLong(snapshot.value());
      out.writeLong(token);
      out.writeUTF(options.owner());
      out.writeUTF(nullToEmpty(options.runId()));
      out.writeUTF(nullToEmpty(options.sourceKey()));
      out.writeUTF(options.lockName());
      out.writeLong(options.writeBufferBytes());
      byte[] tx = CODEC.encode(buildTx);
      out.writeInt(tx.length);
      out.write(tx);
      out.flush();
      return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @throws IllegalArgumentException if {@code text} is not what {@link #encode()} produced */
  public static SnapshotHandle decode(String text) {
    checkArgument(text != null && !text.isEmpty(), "snapshot handle must not be empty");
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(text)));
      int version = in.readInt();
      checkArgument(version == VERSION, "unsupported snapshot handle version %s", version);
      SnapshotId id = SnapshotId.of(in.readLong());
      long token = in.readLong();
      WriterOptions options = new WriterOptions(in.readUTF(), emptyToNull(in.readUTF()),
          emptyToNull(in.readUTF()), in.readUTF(), in.readLong());
      byte[] tx = new byte[in.readInt()];
      in.readFully(tx);
      return new SnapshotHandle(id, CODEC.decode(tx), options, token);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("invalid snapshot handle '"
          + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "': " + e.getMessage(), e);
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  private static String emptyToNull(String s) {
    return s.isEmpty() ? null : s;
  }

  @Override
  public String toString() {
    return "SnapshotHandle{snapshot=" + snapshot + ", lock=" + options.lockName() + ", token=" + token + "}";
  }
}
