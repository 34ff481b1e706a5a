package dev.protomolt.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine;

/** One execution of the {@code protomolt} command line, with what it printed. */
record CommandRun(int status, String out, String err) {

  static CommandRun of(String... args) {
    CommandLine cli = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new CommandRun(status, out.toString(), err.toString());
  }

  /**
   * Starts the command on a thread of its own, so a test can watch what it prints while it runs
   * (a progress line's note) and change the platform under it.
   */
  static Running start(String... args) {
    CommandLine cli = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    CompletableFuture<CommandRun> done = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("protomolt " + String.join(" ", args))
        .start(
            () -> {
              try {
                int status = cli.execute(args);
                done.complete(new CommandRun(status, out.toString(), err.toString()));
              } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
              }
            });
    return new Running(out, done);
  }

  /** A command still running: what it printed so far, and its run once it ends. */
  record Running(StringWriter out, CompletableFuture<CommandRun> done) {

    /** Standard output so far; the writer is synchronized, so this reads a consistent prefix. */
    String outSoFar() {
      return out.toString();
    }

    CommandRun await() throws InterruptedException, ExecutionException {
      return done.get();
    }
  }

  @Override
  public String toString() {
    return "status " + status + "\n--- out\n" + out + "--- err\n" + err;
  }
}
