package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.module.sdk.ScriptedGateway.Conversation;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkUnit;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The same conversation over a real TCP socket on loopback, with the wall clock. */
class ModuleWorkerSocketTest {

  @Test
  void workerCompletesAUnitOverLoopbackTcp() throws Exception {
    ScriptedGateway gateway = new ScriptedGateway();
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(gateway)
            .build()
            .start();
    int port = ((InetSocketAddress) server.getListenSockets().getFirst()).getPort();
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
            .build();
    ModuleWorker worker =
        new ModuleWorker(
            channel,
            WorkerConfig.of("chunker", 1),
            work ->
                ModuleOutcome.updated(
                    work.document().toBuilder()
                        .setSearchMetadata(
                            work.document().getSearchMetadata().toBuilder().setTitle("over tcp"))
                        .build()),
            WorkerClock.system());
    try {
      worker.start();
      Conversation conversation = gateway.nextConversation();
      assertThat(conversation.awaitHello().getHello().getModuleId()).isEqualTo("chunker");
      conversation.sendWorkUnit(
          WorkUnit.newBuilder()
              .setWorkUnitId("wu-tcp")
              .setStream(
                  PipeStream.newBuilder().setDocument(PipeDoc.newBuilder().setDocId("doc-tcp")))
              .build());
      WorkRequest ack = conversation.next();
      assertThat(ack.getAck().getWorkUnitId()).isEqualTo("wu-tcp");
      PipeDoc updated = ack.getAck().getUpdatedPayload().unpack(PipeDoc.class);
      assertThat(updated.getSearchMetadata().getTitle()).isEqualTo("over tcp");
      conversation.confirm("wu-tcp");
      gateway.nextConversation().awaitHello();
      assertThat(worker.completedUnits()).isEqualTo(1);
    } finally {
      worker.shutdown();
      assertThat(worker.awaitTermination(Duration.ofSeconds(10))).isTrue();
      channel.shutdownNow();
      server.shutdownNow();
    }
  }
}
