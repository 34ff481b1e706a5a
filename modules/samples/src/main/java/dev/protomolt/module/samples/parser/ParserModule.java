package dev.protomolt.module.samples.parser;

import dev.protomolt.module.sdk.ModuleRunner;
import java.time.Clock;

/** Runs the sample parser against a gateway: {@code [--gateway HOST:PORT] [--concurrency N]}. */
public final class ParserModule {

  public static final String MODULE_ID = "parser";

  private ParserModule() {}

  public static void main(String[] args) throws InterruptedException {
    ModuleRunner.main(MODULE_ID, new DocumentParser(Clock.systemUTC()), args, 4);
  }
}
