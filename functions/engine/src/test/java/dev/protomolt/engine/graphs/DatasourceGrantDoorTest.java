package dev.protomolt.engine.graphs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.engine.activation.EngineDatabase;
import dev.protomolt.proto.engine.v1.DatasourceGrantRecord;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc.DatasourceGrantServiceBlockingStub;
import dev.protomolt.proto.engine.v1.GrantDatasourceRequest;
import dev.protomolt.proto.engine.v1.ListDatasourceGrantsRequest;
import dev.protomolt.proto.engine.v1.RevokeDatasourceGrantRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The grant door over real PostgreSQL: grant, revoke, the audit list, and refusals as statuses. */
class DatasourceGrantDoorTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
  private PostgresDatasourceBindings owners;
  private Server server;
  private ManagedChannel channel;
  private DatasourceGrantServiceBlockingStub stub;

  @BeforeEach
  void start() throws Exception {
    DataSource ds = EngineDatabase.fresh();
    owners = new PostgresDatasourceBindings(ds);
    owners.bind("ds-1", "acme");
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(new DatasourceGrantGrpcService(new PostgresDatasourceGrants(ds, clock)))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    stub = DatasourceGrantServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  @Test
  void grantRevokeAndRegrantLeaveTheWholeHistory() {
    DatasourceGrantRecord granted = stub.grantDatasource(grant("ops@acme", "pilot"));
    assertThat(granted.getLive()).isTrue();
    assertThat(granted.getGrantedBy()).isEqualTo("ops@acme");
    assertThat(owners.granted("ds-1", "globex")).isTrue();

    clock.advance(Duration.ofHours(1));
    DatasourceGrantRecord revoked = stub.revokeDatasourceGrant(revoke("sec@acme"));
    assertThat(revoked.getLive()).isFalse();
    assertThat(revoked.getRevokedBy()).isEqualTo("sec@acme");
    assertThat(revoked.getRevokedAt().getSeconds() - revoked.getGrantedAt().getSeconds())
        .isEqualTo(3600);
    assertThat(owners.granted("ds-1", "globex")).isFalse();

    stub.grantDatasource(grant("ops@acme", "again"));
    assertThat(
            stub.listDatasourceGrants(
                    ListDatasourceGrantsRequest.newBuilder().setDatasourceId("ds-1").build())
                .getGrantsList())
        .extracting(DatasourceGrantRecord::getReason, DatasourceGrantRecord::getLive)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("pilot", false),
            org.assertj.core.groups.Tuple.tuple("again", true));
  }

  @Test
  void refusalsAreInvalidArgumentNamingTheField() {
    StatusRuntimeException notOwner =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.grantDatasource(
                    grant("eve", "").toBuilder().setOwnerAccountId("globex").build()));
    assertThat(notOwner.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(notOwner.getStatus().getDescription())
        .isEqualTo(
            "ownerAccountId: 'globex' does not own datasource 'ds-1'; only its owner may grant"
                + " access to it");
    StatusRuntimeException nothingToRevoke =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class, () -> stub.revokeDatasourceGrant(revoke("sec@acme")));
    assertThat(nothingToRevoke.getStatus().getDescription())
        .isEqualTo("granteeAccountId: datasource 'ds-1' has no live grant to 'globex' to revoke");
    assertThat(owners.granted("ds-1", "globex")).isFalse();
  }

  private static GrantDatasourceRequest grant(String by, String reason) {
    return GrantDatasourceRequest.newBuilder()
        .setDatasourceId("ds-1")
        .setOwnerAccountId("acme")
        .setGranteeAccountId("globex")
        .setRequestedBy(by)
        .setReason(reason)
        .build();
  }

  private static RevokeDatasourceGrantRequest revoke(String by) {
    return RevokeDatasourceGrantRequest.newBuilder()
        .setDatasourceId("ds-1")
        .setOwnerAccountId("acme")
        .setGranteeAccountId("globex")
        .setRequestedBy(by)
        .build();
  }
}
