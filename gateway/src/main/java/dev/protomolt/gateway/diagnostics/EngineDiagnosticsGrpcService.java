package dev.protomolt.gateway.diagnostics;

import dev.protomolt.proto.engine.v1.ConfigEntry;
import dev.protomolt.proto.engine.v1.EffectiveConfigRequest;
import dev.protomolt.proto.engine.v1.EffectiveConfigResponse;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsServiceGrpc;
import dev.protomolt.proto.engine.v1.ProbeClaimCheckRequest;
import dev.protomolt.proto.engine.v1.ProbeDraftsRequest;
import dev.protomolt.proto.engine.v1.ProbeHopRequest;
import dev.protomolt.proto.engine.v1.ProbeKafkaRequest;
import dev.protomolt.proto.engine.v1.ProbeResult;
import dev.protomolt.proto.engine.v1.ProbeStateMachineRequest;
import dev.protomolt.proto.engine.v1.StorageCoherenceRequest;
import dev.protomolt.proto.engine.v1.StorageCoherenceResponse;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Objects;

/**
 * The diagnostics door: each call runs one probe and answers its result, a failed probe included
 * (a probe that found trouble is a successful call; {@link ProbeResult#getOk()} says what it found).
 * A plain {@link io.grpc.BindableService}, so the gateway's interceptors (operator authentication)
 * cover it like every other door. The gateway registers it only when diagnostics are switched on.
 */
public final class EngineDiagnosticsGrpcService
    extends EngineDiagnosticsServiceGrpc.EngineDiagnosticsServiceImplBase {

  /** The probes, built by the gateway from its own adapters. */
  public record Probes(
      List<EffectiveSetting> settings,
      KafkaCanaryProbe kafka,
      ClaimCheckProbe claimCheck,
      DraftsProbe drafts,
      HopProbe hop,
      StateMachineProbe stateMachine,
      StorageCoherenceCheck coherence) {

    public Probes {
      settings = List.copyOf(settings);
      Objects.requireNonNull(kafka, "kafka");
      Objects.requireNonNull(claimCheck, "claimCheck");
      Objects.requireNonNull(drafts, "drafts");
      Objects.requireNonNull(hop, "hop");
      Objects.requireNonNull(stateMachine, "stateMachine");
      Objects.requireNonNull(coherence, "coherence");
    }
  }

  private final Probes probes;

  public EngineDiagnosticsGrpcService(Probes probes) {
    this.probes = Objects.requireNonNull(probes, "probes");
  }

  /** The resolved settings whose key starts with {@code prefix} (all when blank). */
  public EffectiveConfigResponse effectiveConfig(EffectiveConfigRequest request) {
    EffectiveConfigResponse.Builder out = EffectiveConfigResponse.newBuilder();
    for (EffectiveSetting s : probes.settings()) {
      if (s.key().startsWith(request.getPrefix())) {
        out.addEntries(
            ConfigEntry.newBuilder().setKey(s.key()).setValue(s.value()).setSource(s.source()));
      }
    }
    return out.build();
  }

  public ProbeResult kafka(ProbeKafkaRequest request) {
    return probes.kafka().probe(request.getTopic());
  }

  public ProbeResult claimCheck(ProbeClaimCheckRequest request) {
    return probes.claimCheck().probe(request.getAccountId());
  }

  public ProbeResult drafts(ProbeDraftsRequest request) {
    return probes.drafts().probe(request.getClusterId());
  }

  public ProbeResult hop(ProbeHopRequest request) {
    return probes.hop().probe(request);
  }

  public ProbeResult stateMachine(ProbeStateMachineRequest request) {
    return probes.stateMachine().probe(request.getGraphId(), request.getClusterId());
  }

  public StorageCoherenceResponse storageCoherence(StorageCoherenceRequest request) {
    return probes.coherence().check(request.getAccountId());
  }

  @Override
  public void getStorageCoherence(
      StorageCoherenceRequest request, StreamObserver<StorageCoherenceResponse> out) {
    try {
      answer(out, storageCoherence(request));
    } catch (StatusRuntimeException e) {
      out.onError(e);
    }
  }

  @Override
  public void getEffectiveConfig(
      EffectiveConfigRequest request, StreamObserver<EffectiveConfigResponse> out) {
    answer(out, effectiveConfig(request));
  }

  @Override
  public void probeKafka(ProbeKafkaRequest request, StreamObserver<ProbeResult> out) {
    answer(out, kafka(request));
  }

  @Override
  public void probeClaimCheck(ProbeClaimCheckRequest request, StreamObserver<ProbeResult> out) {
    answer(out, claimCheck(request));
  }

  @Override
  public void probeDrafts(ProbeDraftsRequest request, StreamObserver<ProbeResult> out) {
    answer(out, drafts(request));
  }

  @Override
  public void probeHop(ProbeHopRequest request, StreamObserver<ProbeResult> out) {
    answer(out, hop(request));
  }

  @Override
  public void probeStateMachine(ProbeStateMachineRequest request, StreamObserver<ProbeResult> out) {
    answer(out, stateMachine(request));
  }

  private static <T> void answer(StreamObserver<T> out, T value) {
    out.onNext(value);
    out.onCompleted();
  }
}
