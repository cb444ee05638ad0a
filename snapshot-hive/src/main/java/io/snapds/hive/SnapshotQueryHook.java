package io.snapds.hive;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.hooks.QueryLifeTimeHook;
import org.apache.hadoop.hive.ql.hooks.QueryLifeTimeHookContext;

/**
 * Ends what a query holds when it finishes: releases its reader pins, and aborts the snapshot of
 * an {@code INSERT OVERWRITE} whose query failed (Hive calls the storage handler's commit only
 * on success, and nothing on failure). Register it with
 * {@code hive.query.lifetime.hooks=io.snapds.hive.SnapshotQueryHook}. Without it, pins expire
 * after their time-to-live, and a failed insert's snapshot stays unpublished, holding the
 * dataset's writer lock until the Hive server stops.
 */
public final class SnapshotQueryHook implements QueryLifeTimeHook {
  @Override
  public void beforeCompile(QueryLifeTimeHookContext ctx) {
  }

  @Override
  public void afterCompile(QueryLifeTimeHookContext ctx, boolean hasError) {
    if (hasError) {
      end(ctx);
    }
  }

  @Override
  public void beforeExecution(QueryLifeTimeHookContext ctx) {
  }

  @Override
  public void afterExecution(QueryLifeTimeHookContext ctx, boolean hasError) {
    end(ctx);
  }

  private static void end(QueryLifeTimeHookContext ctx) {
    String queryId = ctx.getHiveConf().getVar(HiveConf.ConfVars.HIVE_QUERY_ID);
    PendingInserts.abort(queryId); // a no-op after a successful commit
    QueryPins.release(queryId);
  }
}
