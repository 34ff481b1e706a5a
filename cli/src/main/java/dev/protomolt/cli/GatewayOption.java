package dev.protomolt.cli;

import dev.protomolt.gateway.GatewayConfig;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * {@code --gateway HOST:PORT}: where a running {@code protomolt up} serves its gRPC doors. The
 * default is {@code $PROTOMOLT_GATEWAY} (set by {@code eval $(protomolt env)}), else the gateway's
 * default port on loopback.
 */
final class GatewayOption {

  static final String DEFAULT = "127.0.0.1:" + GatewayConfig.DEFAULT_PORT;

  @Option(
      names = "--gateway",
      paramLabel = "HOST:PORT",
      defaultValue = "${env:PROTOMOLT_GATEWAY:-" + DEFAULT + "}",
      description =
          "The running platform's gateway (default: $PROTOMOLT_GATEWAY or " + DEFAULT + ").")
  String address;

  ManagedChannel open() {
    int colon = address.lastIndexOf(':');
    int port;
    try {
      port = colon < 1 ? -1 : Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw CommandFailure.refused(
          "--gateway: must be HOST:PORT with a port between 1 and 65535,"
              + " got '"
              + address
              + "'");
    }
    return NettyChannelBuilder.forAddress(address.substring(0, colon), port).usePlaintext().build();
  }

  /**
   * Runs one call, turning the gRPC status into a message that says what to do: an unreachable
   * gateway means {@code up} is not running there.
   */
  <T> T call(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      String detail =
          e.getStatus().getDescription() == null ? code.name() : e.getStatus().getDescription();
      throw switch (code) {
        case UNAVAILABLE ->
            new CommandFailure(
                CommandFailure.UNREACHABLE,
                "no local cloud on "
                    + address
                    + " ("
                    + detail
                    + ") — start it with `protomolt up --data DIR`, or point"
                    + " --gateway at the one running");
        case DEADLINE_EXCEEDED ->
            new CommandFailure(
                CommandFailure.UNREACHABLE,
                what
                    + ": the platform on "
                    + address
                    + " did not answer in time — is `protomolt up` still"
                    + " starting? Try again in a moment");
        case NOT_FOUND -> CommandFailure.refused(what + ": not found — " + detail);
        case INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS, ABORTED ->
            CommandFailure.refused(what + ": refused — " + detail);
        default ->
            CommandFailure.refused(what + ": the platform answered " + code + " — " + detail);
      };
    }
  }
}
