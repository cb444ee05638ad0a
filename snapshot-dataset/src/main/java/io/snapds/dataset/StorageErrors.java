package io.snapds.dataset;

import dev.failsafe.FailsafeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.MasterNotRunningException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.ZooKeeperConnectionException;
import org.apache.hadoop.hbase.client.NoServerForRegionException;
import org.apache.hadoop.hbase.client.RegionOfflineException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.exceptions.ConnectionClosedException;
import org.apache.hadoop.hbase.ipc.CallTimeoutException;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The one place where a failure of HBase underneath an operation becomes the library's typed
 * error. Internal: the store, lock and admin classes call it where they catch a failure, so that
 * every public operation on a dropped, disabled, unreachable or forbidden dataset fails the same
 * way, whichever table or call it hit first.
 *
 * <table>
 *   <caption>What becomes what</caption>
 *   <tr><td>{@code TableNotFoundException}, {@code NamespaceNotFoundException}</td><td>{@link DatasetNotFoundException}</td></tr>
 *   <tr><td>{@code TableNotEnabledException}</td><td>{@link DatasetUnavailableException} (disabled)</td></tr>
 *   <tr><td>{@code NotServingRegionException}, {@code RegionOfflineException} (a write to a disabled
 *       table)</td><td>{@link DatasetUnavailableException} (not served)</td></tr>
 *   <tr><td>HBase's {@code AccessDeniedException}</td><td>{@link AccessDeniedException} with principal and role</td></tr>
 *   <tr><td>retries exhausted, connection refused or closed, timeouts, no master</td><td>{@link DatasetUnavailableException} (unreachable)</td></tr>
 *   <tr><td>anything else</td><td>{@link StorageException}</td></tr>
 * </table>
 * The failure is looked for along the cause chain, through {@link UncheckedIOException} (what
 * HBase's scanner iterators throw), Failsafe's wrapper and every cause of a
 * {@link RetriesExhaustedWithDetailsException} (what a {@code BufferedMutator} throws). Failures of
 * Tephra's client become {@link TransactionServiceUnavailableException} in {@link TypedErrorsTxClient}.
 */
@InterfaceAudience.Private
public final class StorageErrors {
  private static final Pattern USER = Pattern.compile("user[ =]'?([^'\\s,()]+)");
  private static final Pattern TABLE = Pattern.compile("(?:table|scope)=([^,\\s)]+)");
  private static final Pattern FAMILY = Pattern.compile("family=([^,:\\s)]+)");
  private static final Pattern ACTION = Pattern.compile("action=([A-Za-z]+)");
  private static final Pattern DENIAL = Pattern.compile("Insufficient permissions[^\\n]*");

  private StorageErrors() {}

  /** The typed error for {@code failure}, which happened while doing {@code operation} on {@code dataset}. */
  public static SnapshotDatasetException translate(DatasetId dataset, String operation, Throwable failure) {
    return translate(dataset, null, operation, failure);
  }

  private static SnapshotDatasetException translate(DatasetId dataset, TableName table, String operation,
      Throwable failure) {
    if (failure instanceof SnapshotDatasetException typed) {
      return typed;
    }
    List<Throwable> chain = causes(failure);
    for (Throwable t : chain) {
      if (t instanceof SnapshotDatasetException typed) {
        return typed;
      }
      if (t instanceof org.apache.hadoop.hbase.security.AccessDeniedException denied) {
        return denied(dataset, operation, denied);
      }
    }
    for (Throwable t : chain) {
      if (t instanceof TableNotFoundException) {
        return new DatasetNotFoundException(dataset, "table " + t.getMessage() + " is missing (while trying to "
            + operation + ")", failure);
      }
      if (t instanceof NamespaceNotFoundException) {
        return new DatasetNotFoundException(dataset, "namespace " + dataset.namespace() + " does not exist", failure);
      }
      if (t instanceof TableNotEnabledException) {
        return new DatasetUnavailableException(dataset, operation, "table " + t.getMessage()
            + " is disabled (enable it, or wait for the operation that disabled it)", failure);
      }
    }
    for (Throwable t : chain) {
      // what a write to a disabled table gets once the client gave up (often one per buffered
      // mutation, inside a RetriesExhaustedWithDetailsException), and a region that stays offline
      if (t instanceof NotServingRegionException || t instanceof RegionOfflineException) {
        return new DatasetUnavailableException(dataset, operation, (table == null ? "a region" : "table " + table)
            + " is not served (" + t.getClass().getSimpleName() + ": " + firstLine(t.getMessage())
            + "): the table is disabled, or its regions are offline or moving (enable it, or retry later)", failure);
      }
    }
    for (Throwable t : chain) {
      if (isUnreachable(t)) {
        return new DatasetUnavailableException(dataset, operation, "HBase cannot be reached ("
            + t.getClass().getSimpleName() + ": " + t.getMessage() + ")", failure);
      }
    }
    return new StorageException(operation + " on dataset " + dataset, unwrap(failure));
  }

  /** The same, for a failure on one of a dataset's tables (the dataset is named after the table). */
  public static SnapshotDatasetException translate(TableName table, String operation, Throwable failure) {
    return translate(datasetOf(table), table, operation, failure);
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.lines().findFirst().orElse("");
  }

  /** The dataset a table {@code S:N.data|meta|lock} belongs to. */
  static DatasetId datasetOf(TableName table) {
    String q = table.getQualifierAsString();
    int dot = q.lastIndexOf('.');
    return DatasetId.of(table.getNamespaceAsString(), dot < 0 ? q : q.substring(0, dot));
  }

  private static AccessDeniedException denied(DatasetId dataset, String operation,
      org.apache.hadoop.hbase.security.AccessDeniedException denied) {
    String message = String.valueOf(denied.getMessage());
    Matcher d = DENIAL.matcher(message);
    String detail = d.find() ? d.group() : message.lines().findFirst().orElse("");
    String principal = group(USER, detail).orElseGet(StorageErrors::currentUser);
    Optional<DatasetRole.Part> part = group(TABLE, detail).flatMap(t -> {
      try {
        return DatasetRole.Part.of(dataset, TableName.valueOf(t));
      } catch (IllegalArgumentException notATable) {
        return Optional.empty(); // a namespace scope, for example
      }
    });
    byte[] family = group(FAMILY, detail).map(Bytes::toBytes).orElse(null);
    Permission.Action action = group(ACTION, detail).flatMap(StorageErrors::action).orElse(Permission.Action.WRITE);
    DatasetRole role = DatasetRole.leastAllowing(part, family, action);
    return new AccessDeniedException(dataset, principal, operation, role, detail, denied);
  }

  private static Optional<Permission.Action> action(String name) {
    try {
      return Optional.of(Permission.Action.valueOf(name.toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> group(Pattern p, String s) {
    Matcher m = p.matcher(s);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private static String currentUser() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return "<unknown user>";
    }
  }

  private static boolean isUnreachable(Throwable t) {
    return t instanceof RetriesExhaustedException && !(t instanceof RetriesExhaustedWithDetailsException)
        || t instanceof ConnectException || t instanceof SocketTimeoutException
        || t instanceof CallTimeoutException || t instanceof ConnectionClosedException
        || t instanceof NoServerForRegionException || t instanceof MasterNotRunningException
        || t instanceof ZooKeeperConnectionException;
  }

  private static Throwable unwrap(Throwable t) {
    Throwable out = t;
    while ((out instanceof UncheckedIOException || out instanceof FailsafeException) && out.getCause() != null) {
      out = out.getCause();
    }
    return out;
  }

  /** {@code failure} and its causes, breadth first, including every cause a batch failure lists. */
  private static List<Throwable> causes(Throwable failure) {
    List<Throwable> out = new ArrayList<>();
    Set<Throwable> seen = new HashSet<>();
    Deque<Throwable> todo = new ArrayDeque<>();
    todo.add(failure);
    while (!todo.isEmpty() && out.size() < 64) {
      Throwable t = todo.poll();
      if (t == null || !seen.add(t)) {
        continue;
      }
      out.add(t);
      if (t instanceof RetriesExhaustedWithDetailsException batch) {
        for (int i = 0; i < batch.getNumExceptions(); i++) {
          todo.add(batch.getCause(i));
        }
      }
      if (t.getCause() != null) {
        todo.add(t.getCause());
      }
    }
    return out;
  }
}
