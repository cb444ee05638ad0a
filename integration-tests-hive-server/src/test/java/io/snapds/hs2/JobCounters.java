package io.snapds.hs2;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hive.ql.MapRedStats;
import org.apache.hadoop.hive.ql.hooks.ExecuteWithHookContext;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapred.Counters;

/**
 * A post-execution hook of the test's HiveServer2 (hive-site.xml): keeps, by query text, the sum
 * of the handler's {@code snapds:ROWS_READ} counter over the query's MapReduce jobs, which a JDBC
 * client cannot see. The server runs in the test JVM, so the test reads it here.
 */
public final class JobCounters implements ExecuteWithHookContext {
  private static final Map<String, Long> ROWS_READ = new ConcurrentHashMap<>();

  @Override
  public void run(HookContext ctx) {
    SessionState session = SessionState.get();
    long total = 0;
    if (session != null && session.getMapRedStats() != null) {
      for (MapRedStats s : session.getMapRedStats().values()) {
        Counters c = s.getCounters();
        if (c != null) {
          total += c.getGroup("snapds").getCounter("ROWS_READ");
        }
      }
    }
    ROWS_READ.put(ctx.getQueryPlan().getQueryString(), total);
  }

  /** The rows the record readers read for the query with this text (it must have run). */
  static long rowsRead(String query) {
    Long n = ROWS_READ.get(query);
    if (n == null) {
      throw new IllegalStateException("no counters recorded for query: " + query + " (known: " + ROWS_READ.keySet() + ")");
    }
    return n;
  }
}
