package io.snapds.hs2;

import io.snapds.dataset.testing.MiniCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hive.service.server.HiveServer2;

/**
 * One HiveServer2 for the test JVM, on the shared HBase mini cluster (its ZooKeeper settings layered
 * over hive-site.xml): embedded metastore, MapReduce in local mode, thrift over TCP on a free port.
 * Clients reach it only through hive-jdbc, as beeline does.
 */
final class HiveServer {
  private static HiveServer instance;

  private final HiveServer2 server;
  private final String url;

  private HiveServer() throws Exception {
    HiveConf conf = new HiveConf(MiniCluster.get().configuration(), HiveConf.class);
    conf.set("mapreduce.framework.name", "local");
    int port = freePort();
    conf.setIntVar(HiveConf.ConfVars.HIVE_SERVER2_THRIFT_PORT, port);
    server = new HiveServer2();
    server.init(conf);
    server.start();
    url = "jdbc:hive2://localhost:" + port + "/default";
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "hs2-stop"));
    awaitListening();
  }

  static synchronized HiveServer get() throws Exception {
    if (instance == null) {
      instance = new HiveServer();
    }
    return instance;
  }

  /** A new JDBC session (a connection is one HiveServer2 session). */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url, "snapds", "");
  }

  /**
   * HiveServer2 opens its thrift port on a thread of its own after start() returns, and offers no
   * callback for it: try to connect until it answers (at most a minute), as a client would.
   */
  private void awaitListening() throws Exception {
    SQLException last = null;
    for (int i = 0; i < 600; i++) {
      try (Connection c = connect()) {
        return;
      } catch (SQLException e) {
        last = e;
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("HiveServer2 did not accept a connection at " + url, last);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
