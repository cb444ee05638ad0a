package io.snapds.cdap;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * Where the Tephra transaction service is: discovered through ZooKeeper (a Tephra or CDAP
 * transaction service, the default), or a client registered in this JVM under a name
 * ({@link InProcessTransactionClients}). Immutable.
 */
public final class TransactionServiceSpec {
  static final String ZOOKEEPER = "zookeeper";
  static final String IN_PROCESS = "in-process:";

  @Nullable
  private final String inProcessName;

  private TransactionServiceSpec(@Nullable String inProcessName) {
    this.inProcessName = inProcessName;
  }

  /** @throws IllegalArgumentException naming the text when it is neither form */
  static TransactionServiceSpec parse(@Nullable String text) {
    if (text == null || text.isBlank() || text.trim().equals(ZOOKEEPER)) {
      return new TransactionServiceSpec(null);
    }
    String t = text.trim();
    checkArgument(t.startsWith(IN_PROCESS) && t.length() > IN_PROCESS.length(),
        "'%s' is neither 'zookeeper' nor 'in-process:<name>'", text);
    return new TransactionServiceSpec(t.substring(IN_PROCESS.length()));
  }

  public boolean inProcess() {
    return inProcessName != null;
  }

  public String inProcessName() {
    return inProcessName;
  }

  @Override
  public String toString() {
    return inProcessName == null ? ZOOKEEPER : IN_PROCESS + inProcessName;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TransactionServiceSpec s && Objects.equals(inProcessName, s.inProcessName);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(inProcessName);
  }
}
