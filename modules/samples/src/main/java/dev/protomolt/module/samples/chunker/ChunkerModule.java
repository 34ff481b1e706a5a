package dev.protomolt.module.samples.chunker;

import dev.protomolt.module.sdk.ModuleRunner;

/** Runs the sample chunker against a gateway: {@code [--gateway HOST:PORT] [--concurrency N]}. */
public final class ChunkerModule {

  public static final String MODULE_ID = "chunker";

  private ChunkerModule() {}

  public static void main(String[] args) throws InterruptedException {
    ModuleRunner.main(MODULE_ID, new DocumentChunker(), args, 4);
  }
}
