package dev.protomolt.localstack.cloud;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Chooses the loopback port a component listens on. A fixed port is checked before the component
 * starts, so a clash fails with one clear message instead of whatever each server prints; port 0
 * picks a free port (tests use it so that parallel builds on one machine never collide).
 */
public final class LoopbackPort {

  /** Every component binds here and nowhere else: the local cloud is never reachable off-box. */
  public static final String HOST = "127.0.0.1";

  private LoopbackPort() {}

  /**
   * Returns {@code requested} when it is free, a free port when it is 0, and otherwise throws
   * {@link PortInUseException} naming {@code component} and {@code setting}.
   */
  public static int claim(int requested, String component, String setting) {
    if (requested < 0 || requested > 65_535) {
      throw new IllegalArgumentException(
          setting + " must be a port between 0 and 65535, was " + requested);
    }
    try (ServerSocket probe = new ServerSocket()) {
      // Without reuse, a port in TIME_WAIT from our own previous run would look taken.
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(InetAddress.getByName(HOST), requested));
      return probe.getLocalPort();
    } catch (BindException e) {
      throw new PortInUseException(component, requested, setting, e);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot probe " + HOST + ":" + requested + " for " + component, e);
    }
  }
}
