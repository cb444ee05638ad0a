package io.snapds.bench;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.testing.MiniCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.client.Connection;

/** What every benchmark gets: the mini cluster, plain tables, the scale, where to write. */
final class BenchContext {
  private final AtomicInteger names = new AtomicInteger();
  private final MiniCluster cluster;
  private final Scale scale;
  private final Path docs;
  private final Path workDir;

  BenchContext(MiniCluster cluster, Scale scale, Path docs, Path workDir) {
    this.cluster = cluster;
    this.scale = scale;
    this.docs = docs;
    this.workDir = workDir;
  }

  MiniCluster cluster() {
    return cluster;
  }

  Connection connection() {
    return cluster.connection();
  }

  SnapshotDatasets datasets() {
    return cluster.datasets();
  }

  PlainTables tables() {
    return new PlainTables(connection());
  }

  Scale scale() {
    return scale;
  }

  /** Where charts go (next to docs/benchmarks.md). */
  Path docs() {
    return docs;
  }

  /** Scratch space: probe logs, JFR recordings. */
  Path workDir() {
    return workDir;
  }

  /** A name unused in this run. */
  String name(String prefix) {
    return prefix + "_" + names.incrementAndGet();
  }

  SnapshotDataset createDataset(String prefix, DatasetProperties properties) {
    return datasets().create(DatasetId.of(PlainTables.NAMESPACE, name(prefix)), properties);
  }

  void drop(SnapshotDataset dataset) {
    datasets().admin(dataset.id()).drop();
  }

  ClientJvm clientJvm() {
    var conf = cluster.configuration();
    return new ClientJvm(conf.get("hbase.zookeeper.quorum"), conf.get("hbase.zookeeper.property.clientPort"),
        workDir);
  }

  void flush(SnapshotDataset dataset) throws IOException {
    tables().flush(dataset.id().dataTable());
  }
}
