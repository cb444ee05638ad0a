package io.snapds.cli;

import io.snapds.cli.env.Environment;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Which commands the home server runs for the launcher ({@code CommandService}), and running them
 * there: the same command line, its output sent back, over the server's own connection.
 *
 * <p>Left to the client's own JVM (the answer is "empty"): {@code load} (it reads standard input
 * and files named relative to the client's directory), {@code demo} (long, and it manages its own
 * environment), {@code server} (it manages this server), {@code ui} (it serves until stopped),
 * {@code reconcile --watch} in any spelling
 * picocli accepts ({@code --watch 1m}, {@code --watch=1m}: the parsed command says, not the strings;
 * it runs until stopped), any command given a file ({@code create --schema-file}) or an
 * {@code @argfile} (picocli would read it relative to the server's directory), commands for a
 * cluster or another home, and Kerberos logins.
 *
 * <p>A relative path the server does parse (a {@code Path} or {@code File} option, {@code --home}
 * included) names a file in the client's working directory, never the server's.
 */
final class InServerCommands {
  private static final Set<String> OWN_JVM = Set.of("load", "demo", "server", "ui");

  private InServerCommands() {}

  /**
   * Whether the command was given a file (a {@code Path} or {@code File} option or parameter, such
   * as {@code create --schema-file}): a relative name means the client's directory, and the
   * file is the client's to read, so the command runs in the client's own JVM.
   */
  private static boolean namesAFile(ParseResult command) {
    for (ParseResult p = command; p != null; p = p.hasSubcommand() ? p.subcommand() : null) {
      List<CommandLine.Model.ArgSpec> given = new ArrayList<>(p.matchedOptions());
      given.addAll(p.matchedPositionals());
      for (CommandLine.Model.ArgSpec arg : given) {
        Class<?> type = arg.typeInfo().getType();
        if (Path.class.isAssignableFrom(type) || java.io.File.class.isAssignableFrom(type)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether picocli would read {@code arg} as an {@code @argfile}: it starts with {@code @} and is
   * more than that; {@code @@x} is the literal {@code @x}.
   */
  private static boolean isArgFile(String arg) {
    return arg.length() > 1 && arg.charAt(0) == '@' && arg.charAt(1) != '@';
  }

  /** Whether the command runs until stopped ({@code reconcile --watch}, however it was spelled). */
  private static boolean runsUntilStopped(ParseResult command) {
    for (ParseResult p = command; p != null; p = p.hasSubcommand() ? p.subcommand() : null) {
      if (p.hasMatchedOption("--watch")) {
        return true;
      }
    }
    return false;
  }

  /** Relative paths given to {@code commandLine} name files in the client's directory {@code dir}. */
  private static CommandLine resolvingIn(CommandLine commandLine, Path dir) {
    return commandLine.registerConverter(Path.class, s -> dir.resolve(s))
        .registerConverter(java.io.File.class, s -> dir.resolve(s).toFile());
  }

  static OptionalInt run(List<String> args, Path clientDir, Path home, Environment env, PrintWriter out,
      PrintWriter err) {
    if (args.stream().anyMatch(InServerCommands::isArgFile)) {
      return OptionalInt.empty(); // the client's JVM reads it in the client's directory, nested ones too
    }
    CommandLine probe = resolvingIn(SnapdsCommand.commandLine(options -> {
      throw new IllegalStateException("not opened while probing");
    }), clientDir);
    SnapdsCommand root = probe.getCommand();
    List<String> run = new ArrayList<>(args);
    try {
      ParseResult parsed = probe.parseArgs(args.toArray(String[]::new));
      if (parsed.hasSubcommand()) {
        String name = parsed.subcommand().commandSpec().name();
        if (OWN_JVM.contains(name) || runsUntilStopped(parsed.subcommand()) || namesAFile(parsed.subcommand())) {
          return OptionalInt.empty();
        }
      }
      if (!root.environmentOptions().embedded() || root.kerberosLogin().isPresent()) {
        return OptionalInt.empty();
      }
      if (!parsed.hasMatchedOption("--home")) {
        run.add(0, "--home"); // the client resolved the same home from its own $SNAPDS_HOME
        run.add(1, home.toString());
      } else if (!root.environmentOptions().home().equals(home)) {
        return OptionalInt.empty();
      }
    } catch (CommandLine.ParameterException | IllegalArgumentException e) {
      // a usage error: the command line reports it as it would in the client
    }
    CommandLine commandLine = resolvingIn(SnapdsCommand.commandLine(options -> env), clientDir);
    commandLine.setOut(out);
    commandLine.setErr(err);
    return OptionalInt.of(commandLine.execute(run.toArray(String[]::new)));
  }
}
