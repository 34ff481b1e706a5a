package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Fixed ports for a test's local cloud, set as the {@code -Dprotomolt.local.*.port} properties, so
 * commands that derive endpoints from the settings (env, ingest) find the platform the test started.
 * Free ports, not the defaults: other builds on the machine may hold those.
 */
final class LocalPorts {

  static final List<String> SETTINGS =
      List.of(
          LocalCloudSettings.S3_PORT_SETTING,
          LocalCloudSettings.POSTGRES_PORT_SETTING,
          LocalCloudSettings.KAFKA_PORT_SETTING,
          LocalCloudSettings.KAFKA_CONTROLLER_PORT_SETTING,
          LocalCloudSettings.DYNAMODB_PORT_SETTING,
          LocalCloudSettings.STEP_FUNCTIONS_PORT_SETTING,
          LocalCloudSettings.LAMBDA_PORT_SETTING);

  private LocalPorts() {}

  /** The ports set before the last {@link #claim}, which {@link #release} puts back. */
  private static final Map<String, String> BEFORE = new HashMap<>();

  /**
   * Sets free ports, remembering any already set: a test with its own platform may run after the
   * shared platform started, in the same JVM, and must hand the shared ports back when it is done.
   */
  static synchronized void claim() {
    BEFORE.clear();
    for (String setting : SETTINGS) {
      String previous = System.getProperty(setting);
      if (previous != null) {
        BEFORE.put(setting, previous);
      }
      System.setProperty(setting, Integer.toString(free()));
    }
  }

  static synchronized void release() {
    SETTINGS.forEach(System::clearProperty);
    BEFORE.forEach(System::setProperty);
    BEFORE.clear();
  }

  /**
   * Runs {@code action} as if no port were set, then restores them: the shared platform keeps its
   * ports set for the whole run, and a test of the defaults must not see them.
   */
  static <T> T unsetDuring(Supplier<T> action) {
    Map<String, String> set = new HashMap<>();
    for (String setting : SETTINGS) {
      String value = System.getProperty(setting);
      if (value != null) {
        set.put(setting, value);
      }
    }
    SETTINGS.forEach(System::clearProperty);
    try {
      return action.get();
    } finally {
      set.forEach(System::setProperty);
    }
  }

  /**
   * The ports this JVM hands out: below Linux's ephemeral range (32768 and up), where no outgoing
   * connection of another test JVM can take a port between this check and the platform binding
   * it, and a range of its own per Surefire fork so two forks never pick the same one.
   */
  private static final int FIRST_PORT =
      20_000 + 1_000 * (Integer.getInteger("protomolt.test.fork", 1) % 12);

  private static final int PORTS = 1_000;
  private static int nextPort;

  /** A port nothing listens on now, from this JVM's own range, never the same one twice in a row. */
  static synchronized int free() {
    for (int tried = 0; tried < PORTS; tried++) {
      int port = FIRST_PORT + nextPort;
      nextPort = (nextPort + 1) % PORTS;
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException taken) {
        // held by an earlier platform of this run or by something else: try the next one
      }
    }
    throw new IllegalStateException(
        "no free port in "
            + FIRST_PORT
            + ".."
            + (FIRST_PORT + PORTS - 1)
            + " for the test platform");
  }
}
