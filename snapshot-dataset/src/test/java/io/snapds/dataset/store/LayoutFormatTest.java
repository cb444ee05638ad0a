package io.snapds.dataset.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.store.CleanupProgress.KeyRange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The bytes of the metadata layout, pinned: a fixed history of operations that touches every row
 * group leaves exactly the rows, columns and values of {@code layout-format-3.txt}, step by step (and
 * those format 4 adds, {@code layout-format-4.txt}).
 * It runs on the in-memory store, which shares the view's code with the HBase store. Datasets
 * written by earlier versions must still open, so a difference here is a change of the format
 * (a new {@code format.version} and its upgrade), never an edit of the expected text.
 */
class LayoutFormatTest {
  private static final DatasetId ID = DatasetId.of("ns", "format");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void everyRowGroupWritesTheBytesOfFormat3() throws IOException {
    InMemoryMetadataStore store = new InMemoryMetadataStore(ID, Clock.fixed(T0, ZoneOffset.UTC));
    StringBuilder out = new StringBuilder();
    step(store, out, "create and a schema", v -> {
      v.announceCreated();
      v.putSchema(1, Schema.parse("id long key, v string"), 2);
    });
    SnapshotId first = SnapshotId.of(store.nextId());
    SnapshotId second = SnapshotId.of(store.nextId());
    step(store, out, "begin two snapshots", v -> {
      for (SnapshotId id : new SnapshotId[] {first, second}) {
        String source = id.equals(first) ? "a" : "b";
        v.putSnapshot(SnapshotInfo.builder(id).state(SnapshotState.BUILDING).createdAt(v.commitTime())
            .writer("w").runId("run-" + source).sourceKey(source).schemaId(1).fencingToken(3)
            .keyNumber(v.nextKeyNumber()).build());
        v.putRun("run-" + source, id);
        v.putSource(source, id);
        v.putFence("lock-" + source, 3);
      }
    });
    step(store, out, "publish the first with a tag", v -> {
      SnapshotInfo s = v.snapshot(first).orElseThrow();
      v.putSnapshot(s.toBuilder().state(SnapshotState.COMMITTED).committedAt(v.commitTime()).rowCount(10)
          .byteCount(100).tags(Set.of("gold")).summary(Map.of("k", "v")).build());
      v.moveCurrent(first, "publish");
    });
    step(store, out, "publish the second, the tag moves, the first expires", v -> {
      SnapshotInfo a = v.snapshot(first).orElseThrow();
      v.putSnapshot(a.toBuilder().state(SnapshotState.EXPIRED).tags(Set.of()).cleanupFence(5).build());
      SnapshotInfo b = v.snapshot(second).orElseThrow();
      v.putSnapshot(b.toBuilder().state(SnapshotState.COMMITTED).committedAt(v.commitTime()).parentId(first)
          .tags(Set.of("gold")).build());
      v.moveCurrent(second, "publish");
    });
    step(store, out, "a cleanup records progress, a relay its position", v -> {
      v.putCleanupProgress(first, CleanupProgress.NONE.with(new KeyRange(new byte[0], Bytes.toBytes("m")), 7));
      v.putDeliveredPosition("relay", 2);
    });
    step(store, out, "the first is cleaned", v -> {
      v.putSnapshot(v.snapshot(first).orElseThrow().toBuilder().cleanedAt(v.commitTime()).build());
      v.putCleanupProgress(first, CleanupProgress.NONE);
    });
    step(store, out, "rollback, and the horizon keeps none", v -> {
      v.moveCurrent(second, "rollback");
      v.trimToHorizon(0, Optional.empty(), k -> "lock-" + k);
      v.trimEvents(2);
    });
    step(store, out, "the next trim purges what the last deleted", v -> {
      v.trimToHorizon(0, Optional.empty(), k -> "lock-" + k);
    });
    long[] mark = new long[1];
    step(store, out, "truncate", v -> mark[0] = v.resetForTruncate());
    step(store, out, "the truncate finishes, a snapshot begins, then drop", v -> {
      v.finishTruncate(mark[0]);
      v.putSnapshot(SnapshotInfo.builder(SnapshotId.of(store.nextId())).state(SnapshotState.BUILDING)
          .createdAt(v.commitTime()).keyNumber(v.nextKeyNumber()).build());
      v.markDropped();
    });
    assertEquals(expected("layout-format-3.txt"), out.toString());
  }

  /**
   * Format 4 adds staged snapshots and publish groups and changes no row of format 3: a stage's
   * {@code staged} column and {@code a} index row, a group member's {@code group} column (the id,
   * then one line per member), a discarded stage's record (EXPIRED with {@code staged} and no
   * {@code committed}). The bytes of {@code layout-format-4.txt}, step by step.
   */
  @Test
  void stagesAndGroupsWriteTheBytesOfFormat4() throws IOException {
    InMemoryMetadataStore store = new InMemoryMetadataStore(ID, Clock.fixed(T0, ZoneOffset.UTC));
    StringBuilder out = new StringBuilder();
    SnapshotId kept = SnapshotId.of(store.nextId());
    SnapshotId dropped = SnapshotId.of(store.nextId());
    step(store, out, "begin two snapshots", v -> {
      v.announceCreated();
      for (SnapshotId id : new SnapshotId[] {kept, dropped}) {
        v.putSnapshot(SnapshotInfo.builder(id).state(SnapshotState.BUILDING).createdAt(v.commitTime())
            .keyNumber(v.nextKeyNumber()).build());
      }
    });
    step(store, out, "stage both", v -> {
      for (SnapshotId id : new SnapshotId[] {kept, dropped}) {
        v.putSnapshot(v.snapshot(id).orElseThrow().toBuilder().state(SnapshotState.STAGED).stagedAt(v.commitTime())
            .rowCount(3).build());
      }
    });
    step(store, out, "publish one in a group, discard the other", v -> {
      v.putSnapshot(v.snapshot(kept).orElseThrow().toBuilder().state(SnapshotState.COMMITTED)
          .committedAt(v.commitTime()).group("g-1", Set.of("ns:format", "ns:other")).build());
      v.moveCurrent(kept, "publish group g-1");
      v.putSnapshot(v.snapshot(dropped).orElseThrow().toBuilder().state(SnapshotState.EXPIRED).cleanupFence(9)
          .build());
    });
    assertEquals(expected("layout-format-4.txt"), out.toString());
  }

  private interface Step {
    void apply(MetadataView view);
  }

  private static void step(InMemoryMetadataStore store, StringBuilder out, String name, Step step) {
    store.update(name, v -> {
      step.apply(v);
      return null;
    });
    out.append("== ").append(name).append('\n').append(store.dump());
  }

  private static String expected(String resource) throws IOException {
    try (InputStream in = LayoutFormatTest.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
