package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "revoke", mixinStandardHelpOptions = true,
    description = "Take away every permission a user (or @group) holds on a dataset's tables "
        + "(and the admin role's CREATE on the namespace). Needs HBase ADMIN.")
final class RevokeCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", paramLabel = "PRINCIPAL", description = "HBase user, or @group")
  String principal;

  @Override
  int run(Environment env) {
    existingAdmin(env, dataset).revoke(principal);
    out().printf("revoked the access of %s to %s%n", principal, dataset);
    return ExitCodes.OK;
  }
}
