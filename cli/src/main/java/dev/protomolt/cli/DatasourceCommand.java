package dev.protomolt.cli;

import dev.protomolt.proto.engine.v1.DatasourceGrantRecord;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc.DatasourceGrantServiceBlockingStub;
import dev.protomolt.proto.engine.v1.GrantDatasourceRequest;
import dev.protomolt.proto.engine.v1.ListDatasourceGrantsRequest;
import dev.protomolt.proto.engine.v1.RevokeDatasourceGrantRequest;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt datasource grant|revoke|grants}: share a datasource with another account's
 * graphs through the running platform's {@code DatasourceGrantService}.
 */
@Command(
    name = "datasource",
    mixinStandardHelpOptions = true,
    description = "Grant, revoke and list the sharing of a datasource with other accounts.",
    subcommands = {
      DatasourceCommand.Grant.class,
      DatasourceCommand.Revoke.class,
      DatasourceCommand.Grants.class
    })
final class DatasourceCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The plumbing every subcommand shares. */
  abstract static class GrantCall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin GatewayOption gateway;

    @Parameters(index = "0", paramLabel = "DATASOURCE", description = "The datasource id.")
    String datasource;

    @Override
    public final Integer call() {
      ManagedChannel channel = gateway.open();
      try {
        PrintWriter out = spec.commandLine().getOut();
        run(
            DatasourceGrantServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS),
            out);
        out.flush();
        return 0;
      } finally {
        channel.shutdownNow();
      }
    }

    abstract void run(DatasourceGrantServiceBlockingStub grants, PrintWriter out);
  }

  @Command(
      name = "grant",
      mixinStandardHelpOptions = true,
      description = "Let ACCOUNT's graphs subscribe to DATASOURCE, which --owner owns.")
  static final class Grant extends GrantCall {

    @Option(names = "--owner", required = true, description = "The account owning DATASOURCE.")
    String owner;

    @Option(names = "--to", required = true, paramLabel = "ACCOUNT", description = "The grantee.")
    String grantee;

    @Option(names = "--by", defaultValue = "${sys:user.name}", description = "Who grants it.")
    String by;

    @Option(names = "--reason", defaultValue = "", description = "Why, for the audit.")
    String reason;

    @Override
    void run(DatasourceGrantServiceBlockingStub grants, PrintWriter out) {
      DatasourceGrantRecord granted =
          gateway.call(
              "granting datasource '" + datasource + "'",
              () ->
                  grants.grantDatasource(
                      GrantDatasourceRequest.newBuilder()
                          .setDatasourceId(datasource)
                          .setOwnerAccountId(owner)
                          .setGranteeAccountId(grantee)
                          .setRequestedBy(by)
                          .setReason(reason)
                          .build()));
      out.println(line(granted));
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Stop DATASOURCE's next uploads reaching ACCOUNT's graphs.")
  static final class Revoke extends GrantCall {

    @Option(names = "--owner", required = true, description = "The account owning DATASOURCE.")
    String owner;

    @Option(names = "--from", required = true, paramLabel = "ACCOUNT", description = "The grantee.")
    String grantee;

    @Option(names = "--by", defaultValue = "${sys:user.name}", description = "Who revokes it.")
    String by;

    @Override
    void run(DatasourceGrantServiceBlockingStub grants, PrintWriter out) {
      DatasourceGrantRecord revoked =
          gateway.call(
              "revoking the grant of datasource '" + datasource + "'",
              () ->
                  grants.revokeDatasourceGrant(
                      RevokeDatasourceGrantRequest.newBuilder()
                          .setDatasourceId(datasource)
                          .setOwnerAccountId(owner)
                          .setGranteeAccountId(grantee)
                          .setRequestedBy(by)
                          .build()));
      out.println(line(revoked));
    }
  }

  @Command(
      name = "grants",
      mixinStandardHelpOptions = true,
      description = "Every grant of DATASOURCE, live and revoked, oldest first.")
  static final class Grants extends GrantCall {

    @Override
    void run(DatasourceGrantServiceBlockingStub grants, PrintWriter out) {
      gateway
          .call(
              "listing the grants of datasource '" + datasource + "'",
              () ->
                  grants.listDatasourceGrants(
                      ListDatasourceGrantsRequest.newBuilder().setDatasourceId(datasource).build()))
          .getGrantsList()
          .forEach(g -> out.println(line(g)));
    }
  }

  /** One grant on one line: datasource, grantee, state and the audit fields. */
  static String line(DatasourceGrantRecord g) {
    StringBuilder out =
        new StringBuilder()
            .append(g.getDatasourceId())
            .append(" -> ")
            .append(g.getGranteeAccountId())
            .append(g.getLive() ? " live" : " revoked")
            .append(" granted by ")
            .append(g.getGrantedBy())
            .append(" at ")
            .append(
                Instant.ofEpochSecond(g.getGrantedAt().getSeconds(), g.getGrantedAt().getNanos()));
    if (!g.getLive()) {
      out.append(" revoked by ")
          .append(g.getRevokedBy())
          .append(" at ")
          .append(
              Instant.ofEpochSecond(g.getRevokedAt().getSeconds(), g.getRevokedAt().getNanos()));
    }
    if (!g.getReason().isEmpty()) {
      out.append(" (").append(g.getReason()).append(')');
    }
    return out.toString();
  }
}
