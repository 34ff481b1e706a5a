package dev.protomolt.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
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

  @Override
  public String toString() {
    return "status " + status + "\n--- out\n" + out + "--- err\n" + err;
  }
}
