package dev.protomolt.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code protomolt} command. */
@Command(name = "protomolt", mixinStandardHelpOptions = true, version = "protomolt 0.1.0",
    description = "Document pipelines on a local cloud.", subcommands = {UpCommand.class, DemoCommand.class})
public final class Main implements Runnable {

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }

  /** The command line, for {@link #main} and for tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new Main());
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
