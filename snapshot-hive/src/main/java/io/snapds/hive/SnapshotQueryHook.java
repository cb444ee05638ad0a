package io.snapds.hive;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.hooks.ExecuteWithHookContext;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.apache.hadoop.hive.ql.hooks.QueryLifeTimeHook;
import org.apache.hadoop.hive.ql.hooks.QueryLifeTimeHookContext;

/**
 * Ends what a query holds. Register it twice:
 * <pre>
 * hive.exec.post.hooks=io.snapds.hive.SnapshotQueryHook
 * hive.query.lifetime.hooks=io.snapds.hive.SnapshotQueryHook
 * </pre>
 * As a post-execution hook (run only when every task succeeded, and able to fail the query) it
 * publishes the snapshot an {@code INSERT OVERWRITE} built: on the MapReduce engine Hive has no
 * other call back to a storage handler after the job. As a lifetime hook (run after every query,
 * also a failed one) it aborts a snapshot that was begun but not published and releases the
 * query's reader pins. Without the lifetime hook, pins expire after their time-to-live.
 */
public final class SnapshotQueryHook implements ExecuteWithHookContext, QueryLifeTimeHook {
  /** The post-execution hook: publishes the query's snapshot, if it built one. */
  @Override
  public void run(HookContext context) {
    if (context.getHookType() == HookContext.HookType.POST_EXEC_HOOK) {
      PendingInserts.commit(queryId(context.getConf()));
    }
  }

  /** Whether {@code conf} registers this class as a post-execution hook. */
  static boolean isPostExecHook(HiveConf conf) {
    for (String hook : conf.getTrimmedStringCollection(HiveConf.ConfVars.POST_EXEC_HOOKS.varname)) {
      if (hook.equals(SnapshotQueryHook.class.getName())) {
        return true;
      }
    }
    return false;
  }

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
    String queryId = queryId(ctx.getHiveConf());
    PendingInserts.abort(queryId); // nothing left after a successful publish
    QueryPins.release(queryId);
  }

  private static String queryId(HiveConf conf) {
    return conf.getVar(HiveConf.ConfVars.HIVE_QUERY_ID);
  }
}
