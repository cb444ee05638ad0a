package io.snapds.cli.demo;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "demo", mixinStandardHelpOptions = true, description = "demo")
public final class DemoCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 0;
  }
}
