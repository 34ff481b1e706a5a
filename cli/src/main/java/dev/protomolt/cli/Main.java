package dev.protomolt.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code protomolt} command. */
@Command(
    name = "protomolt",
    mixinStandardHelpOptions = true,
    version = "protomolt 0.1.0",
    description = "Document pipelines on a local cloud.",
    subcommands = {
      UpCommand.class,
      EnvCommand.class,
      GraphCommand.class,
      IngestCommand.class,
      DocCommand.class,
      SearchCommand.class,
      DemoCommand.class,
      ReplayCommand.class,
      RedriveCommand.class,
      DlqCommand.class,
      DatasourceCommand.class,
      LogsCommand.class,
      DoctorCommand.class,
      StorageCommand.class,
      TraceCommand.class,
      StatusCommand.class
    })
public final class Main implements Runnable {

  /**
   * java.util.logging loggers quieted on the console: Lucene's advice about the vector incubator
   * module, and the module SDK's reconnect warnings, which the platform's own shutdown triggers.
   * Held here because JUL keeps loggers only weakly, and a collected one forgets its level.
   */
  private static final List<Logger> QUIETED =
      List.of(Logger.getLogger("org.apache.lucene"), Logger.getLogger("dev.protomolt.module.sdk"));

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }

  /** The command line, for {@link #main} and for tests. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    // A CommandFailure already says what went wrong and what to do; a stack trace would bury it.
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          PrintWriter err = commandLine.getErr();
          if (e instanceof CommandFailure failure) {
            err.println(commandLine.getCommandSpec().qualifiedName() + ": " + failure.getMessage());
            err.flush();
            return failure.exitCode();
          }
          throw e;
        });
    return cli;
  }

  public static void main(String[] args) {
    QUIETED.forEach(logger -> logger.setLevel(Level.SEVERE));
    System.exit(commandLine().execute(args));
  }
}
