package dev.protomolt.module.samples.embedder;

import dev.protomolt.module.sdk.ModuleRunner;

/** Runs the sample embedder against a gateway: {@code [--gateway HOST:PORT] [--concurrency N]}. */
public final class EmbedderModule {

  public static final String MODULE_ID = "embedder";

  private EmbedderModule() {}

  public static void main(String[] args) throws InterruptedException {
    ModuleRunner.main(MODULE_ID, new DocumentEmbedder(), args, 4);
  }
}
