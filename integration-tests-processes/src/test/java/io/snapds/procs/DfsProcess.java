package io.snapds.procs;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * HDFS in a process of its own: a MiniDFSCluster (one NameNode, one DataNode) on a given NameNode
 * port, its storage under a given directory. Why HDFS and not a local {@code file://} root: a
 * region server's write-ahead log must reach storage that outlives the region server. On HDFS a
 * WAL edit is acknowledged after {@code hflush} reached the DataNode, so a SIGKILLed region
 * server loses nothing its clients were told was written, and the master replays the log; the
 * local file system's output stream gives no such guarantee to HBase (it refuses to run a WAL on
 * it unless {@code hbase.unsafe.stream.capability.enforce} is off).
 *
 * <p>Arguments: {@code NAMENODE_PORT DIR}. Writes {@code DIR/ready} once the DataNode has
 * registered, then runs until the process is stopped.
 */
public final class DfsProcess {
  private DfsProcess() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    Path dir = Path.of(args[1]).toAbsolutePath();
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("data").toString());
    conf.setInt("dfs.replication", 1);
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.setInt("dfs.namenode.handler.count", 10);
    conf.setInt("dfs.datanode.handler.count", 10);
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).nameNodePort(port).numDataNodes(1).format(true).build();
    dfs.waitActive();
    Runtime.getRuntime().addShutdownHook(new Thread(dfs::shutdown, "dfs-stop"));
    Files.writeString(dir.resolve("ready"), dfs.getURI().toString());
    Thread.currentThread().join();
  }
}
