package io.snapds.cli.env;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #10 item 14: {@code --local-tx DIR} runs a Tephra manager over DIR's edit log; two
 * processes doing that at once would hand out the same write pointers. The directory is locked.
 */
class LocalTxDirectoryIsExclusiveTest {
  @TempDir
  Path dir;

  @Test
  void aSecondManagerOverTheSameDirectoryIsRefusedUntilTheFirstCloses() {
    Configuration conf = new Configuration(false);
    try (ClusterEnvironment.LocalTx first = ClusterEnvironment.LocalTx.open(dir, conf)) {
      Transaction tx = first.service().client().startShort();
      first.service().client().abort(tx);
      EnvironmentException e = assertThrows(EnvironmentException.class,
          () -> ClusterEnvironment.LocalTx.open(dir, conf));
      assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("in use"), e.getMessage());
    }
    try (ClusterEnvironment.LocalTx again = ClusterEnvironment.LocalTx.open(dir, conf)) {
      assertTrue(again.service().client().startShort().getWritePointer() > 0, "usable once the first closed");
    }
  }
}
