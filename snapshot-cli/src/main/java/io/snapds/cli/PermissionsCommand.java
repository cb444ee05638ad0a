package io.snapds.cli;

import io.snapds.cli.env.Environment;
import io.snapds.cli.output.TextTable;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetRole;
import io.snapds.dataset.admin.PrincipalAccess;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "permissions", mixinStandardHelpOptions = true,
    description = "Who may do what with a dataset: each principal's role and its HBase permissions.")
final class PermissionsCommand extends EnvCommand {
  @Parameters(index = "0", paramLabel = "DATASET", description = "namespace:name")
  DatasetId dataset;

  @Override
  int run(Environment env) {
    List<PrincipalAccess> access = existingAdmin(env, dataset).permissions();
    if (access.isEmpty()) {
      out().printf("dataset %s: no permissions granted (only superusers and the tables' owner may use it)%n", dataset);
      return ExitCodes.OK;
    }
    TextTable table = new TextTable("PRINCIPAL", "ROLE", "PERMISSIONS");
    for (PrincipalAccess a : access) {
      table.row(a.principal(), a.role().map(DatasetRole::roleName).orElse("-"), String.join(", ", a.permissions()));
    }
    table.print(out());
    return ExitCodes.OK;
  }
}
