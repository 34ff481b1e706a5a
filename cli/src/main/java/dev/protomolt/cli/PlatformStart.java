package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudSettings;

/**
 * Starting the platform for {@code up} and {@code demo}. The local cloud's start failures already
 * say what to do (a port in use and the property that moves it, a missing dynalite install and the
 * command that installs it); they are shown as that message alone, without a stack trace.
 */
final class PlatformStart {

  private PlatformStart() {}

  static LocalPlatform start(LocalCloudSettings settings, int gatewayPort) {
    System.err.println(
        "protomolt: starting the local cloud, engine, gateway and sample modules in "
            + settings.dataDir().toAbsolutePath()
            + " ...");
    try {
      return LocalPlatform.start(settings, gatewayPort);
    } catch (RuntimeException e) {
      Throwable cause = e;
      while (cause.getCause() != null
          && cause.getMessage() != null
          && cause.getMessage().equals(String.valueOf(cause.getCause()))) {
        cause = cause.getCause();
      }
      throw new CommandFailure(
          CommandFailure.UNREACHABLE, "the local platform did not start: " + cause.getMessage());
    }
  }
}
