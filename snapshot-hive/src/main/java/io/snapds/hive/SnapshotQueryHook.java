package io.snapds.hive;

import java.util.List;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.FetchTask;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.plan.TableDesc;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.apache.hadoop.hive.ql.parse.HiveSemanticAnalyzerHook;
import org.apache.hadoop.hive.ql.parse.HiveSemanticAnalyzerHookContext;
import org.apache.hadoop.hive.ql.parse.SemanticException;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.hive.ql.hooks.ExecuteWithHookContext;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.apache.hadoop.hive.ql.hooks.QueryLifeTimeHook;
import org.apache.hadoop.hive.ql.hooks.QueryLifeTimeHookContext;

/**
 * Ends what a query holds. Register it as three hooks:
 * <pre>
 * hive.exec.post.hooks=io.snapds.hive.SnapshotQueryHook
 * hive.query.lifetime.hooks=io.snapds.hive.SnapshotQueryHook
 * hive.semantic.analyzer.hook=io.snapds.hive.SnapshotQueryHook
 * </pre>
 * As a post-execution hook (run only when every task succeeded, and able to fail the query) it
 * publishes the snapshot an {@code INSERT OVERWRITE} built: on the MapReduce engine Hive has no
 * other call back to a storage handler after the job. As a lifetime hook (run after every query,
 * also a failed one) it aborts a snapshot that was begun but not published and releases the
 * query's reader pins (those of a query whose rows a fetch task reads when the session compiles
 * its next query or closes, whichever comes first, as Hive fetches after execution ends). Without
 * the lifetime hook, pins expire after their time-to-live. As a
 * semantic analyzer hook (optional) it resolves {@code FOR SYSTEM_VERSION/TIME AS OF} clauses when
 * the query is compiled, so that a bad id fails compilation rather than the job.
 */
public final class SnapshotQueryHook implements ExecuteWithHookContext, QueryLifeTimeHook,
    HiveSemanticAnalyzerHook {

  @Override
  public ASTNode preAnalyze(HiveSemanticAnalyzerHookContext context, ASTNode ast) {
    return ast;
  }

  /** The semantic analyzer hook: resolves and pins the AS OF clauses' snapshots at compile time. */
  @Override
  public void postAnalyze(HiveSemanticAnalyzerHookContext context, List<Task<?>> rootTasks)
      throws SemanticException {
    HiveConf conf = context.getConf() instanceof HiveConf ? (HiveConf) context.getConf()
        : new HiveConf(context.getConf(), HiveConf.class);
    AsOfClauses.resolve(conf, rootTasks, context.getInputs());
  }

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
    SessionState session = SessionState.get();
    if (session != null) {
      QueryPins.releaseDeferred(session.getSessionId());
    }
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
    HookContext hook = ctx.getHookContext();
    SessionState session = SessionState.get();
    if (!hasError && session != null && hook != null && fetchReadsASnapshot(hook.getQueryPlan())) {
      // the rows are fetched after "execution": keep the pins until the session's next query or its end
      String queryId = queryId(ctx.getHiveConf());
      PendingInserts.abort(queryId);
      QueryPins.releaseWithNextQuery(session, queryId);
      return;
    }
    end(ctx);
  }

  /** Whether the query's rows come from a fetch task reading a snapshot table (no job). */
  private static boolean fetchReadsASnapshot(QueryPlan plan) {
    FetchTask fetch = plan == null ? null : plan.getFetchTask();
    TableDesc table = fetch == null || fetch.getWork() == null ? null : fetch.getWork().getTblDesc();
    return table != null && HiveSnapshotInputFormat.class.equals(table.getInputFileFormatClass());
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
