package dev.protomolt.engine.graphs;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.engine.v1.DatasourceGrantRecord;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc;
import dev.protomolt.proto.engine.v1.GrantDatasourceRequest;
import dev.protomolt.proto.engine.v1.ListDatasourceGrantsRequest;
import dev.protomolt.proto.engine.v1.ListDatasourceGrantsResponse;
import dev.protomolt.proto.engine.v1.RevokeDatasourceGrantRequest;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.Objects;

/** The operator door of datasource grants: grant, revoke and the audit list. */
public final class DatasourceGrantGrpcService
    extends DatasourceGrantServiceGrpc.DatasourceGrantServiceImplBase {

  private final PostgresDatasourceGrants grants;

  public DatasourceGrantGrpcService(PostgresDatasourceGrants grants) {
    this.grants = Objects.requireNonNull(grants, "grants");
  }

  @Override
  public void grantDatasource(
      GrantDatasourceRequest request, StreamObserver<DatasourceGrantRecord> out) {
    DoorCalls.unary(
        out,
        () ->
            record(
                grants.grant(
                    request.getDatasourceId(),
                    request.getOwnerAccountId(),
                    request.getGranteeAccountId(),
                    request.getRequestedBy(),
                    request.getReason())));
  }

  @Override
  public void revokeDatasourceGrant(
      RevokeDatasourceGrantRequest request, StreamObserver<DatasourceGrantRecord> out) {
    DoorCalls.unary(
        out,
        () ->
            record(
                grants.revoke(
                    request.getDatasourceId(),
                    request.getOwnerAccountId(),
                    request.getGranteeAccountId(),
                    request.getRequestedBy())));
  }

  @Override
  public void listDatasourceGrants(
      ListDatasourceGrantsRequest request, StreamObserver<ListDatasourceGrantsResponse> out) {
    DoorCalls.unary(
        out,
        () ->
            ListDatasourceGrantsResponse.newBuilder()
                .addAllGrants(
                    grants.history(request.getDatasourceId()).stream()
                        .map(DatasourceGrantGrpcService::record)
                        .toList())
                .build());
  }

  static DatasourceGrantRecord record(DatasourceGrant g) {
    DatasourceGrantRecord.Builder out =
        DatasourceGrantRecord.newBuilder()
            .setGrantId(g.grantId())
            .setDatasourceId(g.datasourceId())
            .setGranteeAccountId(g.granteeAccountId())
            .setGrantedBy(g.grantedBy())
            .setGrantedAt(timestamp(g.grantedAt()))
            .setReason(g.reason())
            .setRevokedBy(g.revokedBy().orElse(""))
            .setLive(g.live());
    g.revokedAt().ifPresent(at -> out.setRevokedAt(timestamp(at)));
    return out.build();
  }

  private static Timestamp timestamp(Instant at) {
    return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
  }
}
