package dev.protomolt.module.sdk;

import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.tracing.Tracing;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The {@code main} of a module process: dial the gateway, run a worker until the process is told
 * to stop, then shut down gracefully. Arguments: {@code [--gateway HOST:PORT] [--concurrency N]}.
 *
 * <p>Every call is signed with the process's AWS credentials (the default chain: the task role
 * on ECS, a profile or the environment elsewhere), which the gateway maps to the modules this
 * principal may serve; {@code AWS_ENDPOINT_URL_STS} and {@code AWS_REGION} say which STS endpoint
 * to sign for, and must match the gateway's; {@code PROTOMOLT_GATEWAY_AUDIENCE} names the gateway
 * the tokens are meant for (the stack's {@code GatewayAudience} output), which refuses a token for
 * any other. {@code PROTOMOLT_GATEWAY_CA} names the CA file the
 * gateway's TLS endpoint is trusted by (the local cloud's); without it a gateway off loopback is
 * reached over TLS with the default roots.
 */
public final class ModuleRunner {

  public static final String DEFAULT_GATEWAY = "127.0.0.1:18100";

  private ModuleRunner() {}

  /** Parsed command line of a module process. */
  public record Options(String gateway, int concurrency) {

    public static Options parse(String[] args, int defaultConcurrency) {
      String gateway = DEFAULT_GATEWAY;
      int concurrency = defaultConcurrency;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--gateway" -> gateway = valueAfter(args, i++);
          case "--concurrency" -> {
            String value = valueAfter(args, i++);
            try {
              concurrency = Integer.parseInt(value);
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException(
                  "--concurrency must be a whole number >= 1, got \"" + value + "\"");
            }
          }
          default -> {
            /* left for the module's own options */
          }
        }
      }
      if (concurrency < 1) {
        throw new IllegalArgumentException(
            "--concurrency must be a whole number >= 1, got " + concurrency);
      }
      if (!gateway.matches("[^:]+:\\d{1,5}")) {
        throw new IllegalArgumentException("--gateway must be HOST:PORT, got \"" + gateway + "\"");
      }
      return new Options(gateway, concurrency);
    }

    private static String valueAfter(String[] args, int i) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      return args[i + 1];
    }
  }

  /**
   * What a module's {@code main} calls: parses the common options, runs until SIGTERM / Ctrl-C, and
   * exits with status 2 and a one-line message when an option is wrong.
   */
  public static void main(
      String moduleId, DocumentProcessor processor, String[] args, int defaultConcurrency)
      throws InterruptedException {
    Options options;
    try {
      options = Options.parse(args, defaultConcurrency);
    } catch (IllegalArgumentException e) {
      System.err.println(moduleId + ": " + e.getMessage());
      System.exit(2);
      return;
    }
    run(moduleId, processor, options);
  }

  /**
   * A signed channel to the gateway at {@code HOST:PORT}: TLS trusting {@code PROTOMOLT_GATEWAY_CA}
   * when set, plaintext on loopback, TLS with the default roots elsewhere (decision 1745).
   */
  public static ManagedChannel channel(String gateway, java.util.Map<String, String> env) {
    int colon = gateway.lastIndexOf(':');
    String host = gateway.substring(0, colon);
    return Grpc.newChannelBuilderForAddress(
            host,
            Integer.parseInt(gateway.substring(colon + 1)),
            GatewayTransport.forGateway(host, env))
        .intercept(GatewayCallCredentials.fromEnvironment(env).interceptor())
        .build();
  }

  /** Runs until SIGTERM / Ctrl-C; blocks the calling thread. */
  public static void run(String moduleId, DocumentProcessor processor, Options options)
      throws InterruptedException {
    ManagedChannel channel = channel(options.gateway(), System.getenv());
    // OTEL_EXPORTER_OTLP_ENDPOINT set: each processed unit is a span in its document's trace.
    Tracing tracing = Tracing.fromEnvironment(System::getenv, moduleId);
    ModuleWorker worker =
        new ModuleWorker(
            channel,
            WorkerConfig.of(moduleId, options.concurrency()),
            processor,
            WorkerClock.system(),
            tracing.tracer());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    worker.close();
                    tracing.close();
                    // The worker never closes the channel it was given: its owner does, here.
                    channel.shutdown().awaitTermination(5, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } finally {
                    stopped.countDown();
                  }
                },
                moduleId + "-shutdown"));
    System.out.println(
        moduleId
            + " worker pulling from "
            + options.gateway()
            + " with up to "
            + options.concurrency()
            + " streams");
    worker.start();
    // The slots are virtual threads, which do not keep the JVM alive: the main thread does.
    stopped.await();
  }
}
