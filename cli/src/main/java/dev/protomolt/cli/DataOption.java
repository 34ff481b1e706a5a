package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --data DIR}: the one folder every command derives the local platform's settings from. */
final class DataOption {

  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = ".protomolt",
      description =
          "The local platform's data folder, as given to `protomolt up` (default:"
              + " ${DEFAULT-VALUE}).")
  Path data;

  /** The local cloud's settings: fixed ports (or -Dprotomolt.local.* overrides) under {@code data}. */
  LocalCloudSettings settings() {
    return LocalCloudSettings.fromSystemProperties().withDataDir(data);
  }
}
