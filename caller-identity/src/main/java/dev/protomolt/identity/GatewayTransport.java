package dev.protomolt.identity;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * How a client's channel reaches the gateway (decision 1745): TLS trusting only the CA file given
 * ({@code PROTOMOLT_GATEWAY_CA}: the local cloud's generated CA), else plaintext for a gateway on
 * loopback (a gateway task reached without its load balancer), else TLS trusting the JVM's default
 * roots (the load balancer's ACM certificate in AWS). A token is never sent in plaintext off the
 * machine.
 */
public final class GatewayTransport {

  /** The variable naming the PEM CA certificate the gateway's TLS endpoint is trusted by. */
  public static final String CA_VARIABLE = "PROTOMOLT_GATEWAY_CA";

  private GatewayTransport() {}

  /** The credentials for a channel to {@code host}, trusting {@code CA_VARIABLE} when set. */
  public static ChannelCredentials forGateway(String host, Map<String, String> env) {
    String ca = env.getOrDefault(CA_VARIABLE, "");
    return forGateway(host, ca.isBlank() ? null : Path.of(ca.strip()), CA_VARIABLE);
  }

  /**
   * The credentials for a channel to {@code host}: TLS trusting {@code caFile} only when given
   * (named {@code field} in errors), else plaintext on loopback and the default roots elsewhere.
   */
  public static ChannelCredentials forGateway(String host, Path caFile, String field) {
    if (caFile != null) {
      File file = caFile.toAbsolutePath().toFile();
      if (!Files.isReadable(file.toPath())) {
        throw new IllegalArgumentException(
            field + ": the gateway CA file " + file + " does not exist or cannot be read");
      }
      try {
        return TlsChannelCredentials.newBuilder().trustManager(file).build();
      } catch (IOException e) {
        throw new UncheckedIOException(
            field + ": " + file + " is not a PEM certificate: " + e.getMessage(), e);
      }
    }
    if (isLoopback(host)) {
      return InsecureChannelCredentials.create();
    }
    return TlsChannelCredentials.create();
  }

  /** Whether {@code host} names this machine's loopback interface. */
  public static boolean isLoopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
  }
}
