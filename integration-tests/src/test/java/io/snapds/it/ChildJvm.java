package io.snapds.it;

import io.snapds.dataset.testing.MiniCluster;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a client process on this JVM's classpath that talks to the shared mini cluster: its main
 * gets the ZooKeeper quorum and port first, then {@code args}. For tests whose client must be a
 * process of its own (a small heap, a process to kill).
 */
final class ChildJvm {
  private ChildJvm() {}

  static ProcessBuilder of(String heap, Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heap);
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-") || arg.startsWith("-Dio.netty") || arg.startsWith("-Dorg.apache.hbase.thirdparty")
          || arg.startsWith("-Dlog4j2.")) {
        cmd.add(arg);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.add(MiniCluster.get().configuration().get("hbase.zookeeper.quorum"));
    cmd.add(MiniCluster.get().configuration().get("hbase.zookeeper.property.clientPort"));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd);
  }
}
