package io.snapds.hive;

import io.snapds.dataset.testing.MiniCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.DriverFactory;
import org.apache.hadoop.hive.ql.IDriver;
import org.apache.hadoop.hive.ql.MapRedStats;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapred.Counters;

/**
 * One in-process Hive session for the test JVM, on the shared HBase mini cluster (its ZooKeeper
 * settings layered over hive-site.xml). Every statement gets a new driver, as HiveServer2 does.
 */
final class EmbeddedHive {
  private static EmbeddedHive instance;

  private final SessionState session;

  private EmbeddedHive() {
    HiveConf conf = new HiveConf(MiniCluster.get().configuration(), HiveConf.class);
    conf.set("mapreduce.framework.name", "local");
    session = SessionState.start(new SessionState(conf));
    try {
      sql("CREATE TEMPORARY FUNCTION gate AS '" + GateUdf.class.getName() + "'");
      sql("CREATE TEMPORARY FUNCTION fail_on AS '" + FailUdf.class.getName() + "'");
    } catch (Exception e) {
      throw new IllegalStateException("registering the test functions failed", e);
    }
  }

  static synchronized EmbeddedHive get() {
    if (instance == null) {
      instance = new EmbeddedHive();
    }
    SessionState.setCurrentSessionState(instance.session);
    return instance;
  }

  HiveConf conf() {
    return session.getConf();
  }

  void set(String key, String value) {
    if (value == null) {
      session.getConf().unset(key);
    } else {
      session.getConf().set(key, value);
    }
  }

  /** Runs one statement with a setting changed for it only. */
  List<String> sqlWith(String key, String value, String statement) throws Exception {
    String before = session.getConf().get(key);
    set(key, value);
    try {
      return sql(statement);
    } finally {
      set(key, before);
    }
  }

  /** Runs one statement; returns its rows, tab-separated. */
  List<String> sql(String statement) throws Exception {
    SessionState.setCurrentSessionState(session);
    IDriver driver = DriverFactory.newDriver(session.getConf());
    try {
      session.setMapRedStats(null);
      driver.run(statement);
      List<String> out = new ArrayList<>();
      List<String> batch = new ArrayList<>();
      while (driver.getResults(batch)) {
        out.addAll(batch);
        batch.clear();
      }
      return out;
    } finally {
      driver.close();
    }
  }

  /** The sum of a counter over the MapReduce jobs of the last statement (0 if it ran none). */
  long counter(String group, String name) {
    long total = 0;
    if (session.getMapRedStats() == null) {
      return 0;
    }
    for (MapRedStats s : session.getMapRedStats().values()) {
      Counters c = s.getCounters();
      if (c != null) {
        total += c.getGroup(group).getCounter(name);
      }
    }
    return total;
  }
}
