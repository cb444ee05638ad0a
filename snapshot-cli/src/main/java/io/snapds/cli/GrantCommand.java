package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetRole;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "grant", mixinStandardHelpOptions = true,
    description = "Give a user (or @group) a role on a dataset: reader, writer or admin "
        + "(docs/security.md). Replaces what the principal held on the dataset. Needs HBase ADMIN.")
final class GrantCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Parameters(index = "1", paramLabel = "PRINCIPAL", description = "HBase user, or @group")
  String principal;

  // a String, parsed in validate(): an enum-typed option would make picocli load DatasetRole (and
  // with it the lock table's logger) while the command line is built, before the log directory is set
  @Parameters(index = "2", paramLabel = "ROLE", description = "reader, writer or admin")
  String roleName;

  private DatasetRole role;

  @Override
  void validate() {
    role = DatasetRole.parse(roleName);
  }

  @Override
  int run(Environment env) {
    existingAdmin(env, dataset).grant(principal, role);
    out().printf("granted %s on %s to %s%n", role.roleName(), dataset, principal);
    return ExitCodes.OK;
  }
}
