package dev.protomolt.engine.activation;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.graphs.StepFunctionsVersionPins;
import dev.protomolt.engine.hop.KafkaEventBus;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.localstack.cloud.LoopbackPort;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.proto.config.v1.DlqConfig;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Activation creates the version's dead-letter topics on a broker that, like MSK Serverless, has
 * automatic topic creation off, before the alias moves; without them the DLQ hop could not publish.
 */
class DeadLetterTopicActivationTest {

  private static LocalKafka kafka;
  private static Admin kafkaAdmin;

  private LocalStepFunctions runtime;
  private SfnClient sfn;
  private GraphStore store;
  private GraphAdminService admin;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start(Files.createTempDirectory("kafka-dlq"), 0, 0, false);
    kafkaAdmin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopKafka() {
    kafkaAdmin.close();
    kafka.close();
  }

  @BeforeEach
  void start() throws Exception {
    DataSource ds = EngineDatabase.fresh();
    runtime =
        LocalStepFunctions.start(
            0,
            ds,
            (fn, payload) -> "{}",
            new dev.protomolt.localstack.sfn.FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
    sfn = EngineTestClients.controlPlaneSfn(runtime.endpoint());
    store = new PostgresGraphStore(ds);
    admin =
        new GraphAdminService(
            store,
            new StepFunctionsVersionPins(sfn, store),
            event -> {},
            GraphValidator.standard(EngineDatabase.CEL, EngineDatabase.TENANCY),
            new FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
  }

  @AfterEach
  void stop() {
    sfn.close();
    runtime.close();
  }

  private GraphActivationService activation(KafkaTopicProvisioning topics) {
    return new GraphActivationService(
        admin,
        new SfnStateMachines(sfn, EngineTestClients.ROLE),
        EngineTestClients.FUNCTIONS,
        topics);
  }

  @Test
  void activationCreatesEveryPublishingNodesTopicSoADeadLetterCanBeProduced() throws Exception {
    // The chunker keeps its dead letters without publishing them, so it needs no topic.
    PipelineGraph graph = linear("dlq-a", 0);
    graph =
        graph.toBuilder()
            .setNodes(
                2,
                graph.getNodes(2).toBuilder()
                    .setDlqConfig(DlqConfig.newBuilder().setEnabled(false)))
            .build();
    admin.create(graph, OptionalLong.empty(), "ann");
    assertThat(topics()).noneMatch(t -> t.contains(".dlq-a."));

    activation(new KafkaTopicProvisioning(kafkaAdmin, Duration.ofSeconds(30)))
        .activate("dlq-a", "c1", 1);

    assertThat(topics())
        .contains(
            EventBus.dlqTopic("c1", "dlq-a", "in"),
            EventBus.dlqTopic("c1", "dlq-a", "parse"),
            EventBus.dlqTopic("c1", "dlq-a", "index"))
        .doesNotContain(EventBus.dlqTopic("c1", "dlq-a", "chunk"));
    try (KafkaEventBus bus =
        KafkaEventBus.connect(kafka.bootstrapServers(), Duration.ofSeconds(30))) {
      bus.publish(EventBus.dlqTopic("c1", "dlq-a", "parse"), "dlq-1", new byte[] {1});
    }
  }

  @Test
  void repeatingAndRollingBackLeaveExistingTopicsAsTheyAre() throws Exception {
    String parse = EventBus.dlqTopic("c1", "dlq-b", "parse");
    // An operator made this topic wider by hand; activation must not touch it.
    kafkaAdmin
        .createTopics(List.of(new NewTopic(parse, 3, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    GraphActivationService activation =
        activation(new KafkaTopicProvisioning(kafkaAdmin, Duration.ofSeconds(30)));
    admin.create(linear("dlq-b", 0), OptionalLong.empty(), "ann");
    admin.create(linear("dlq-b", 0), OptionalLong.empty(), "ann");

    activation.activate("dlq-b", "c1", 1);
    activation.activate("dlq-b", "c1", 1);
    activation.activate("dlq-b", "c1", 2);
    activation.activate("dlq-b", "c1", 1);

    assertThat(
            kafkaAdmin
                .describeTopics(List.of(parse))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(parse)
                .partitions())
        .hasSize(3);
    assertThat(store.get("dlq-b", 1).orElseThrow().active()).isTrue();
  }

  @Test
  void topicsThatCannotBeCreatedRefuseTheActivationBeforeTheStoreOrAliasMoves() throws Exception {
    GraphActivationService working =
        activation(new KafkaTopicProvisioning(kafkaAdmin, Duration.ofSeconds(30)));
    admin.create(linear("dlq-c", 0), OptionalLong.empty(), "ann");
    admin.create(linear("dlq-c", 0), OptionalLong.empty(), "ann");
    String machine = working.activate("dlq-c", "c1", 1).machineArn();

    int closedPort = LoopbackPort.claim(0, "unused port", "none");
    try (Admin unreachable =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + closedPort,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                2000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                1000))) {
      GraphActivationService broken =
          activation(new KafkaTopicProvisioning(unreachable, Duration.ofSeconds(5)));
      assertThatThrownBy(() -> broken.activate("dlq-c", "c1", 2))
          .isInstanceOfSatisfying(
              GraphAdminException.class,
              e -> assertThat(e.reason()).isEqualTo(GraphAdminException.Reason.UNAVAILABLE))
          .hasMessageContaining("graph 'dlq-c' version 2 was not activated")
          .hasMessageContaining("dead-letter topics");
    }
    assertThat(store.get("dlq-c", 1).orElseThrow().active()).isTrue();
    assertThat(store.get("dlq-c", 2).orElseThrow().active()).isFalse();
    assertThat(
            sfn.describeStateMachineAlias(b -> b.stateMachineAliasArn(machine + ":active"))
                .routingConfiguration()
                .getFirst()
                .stateMachineVersionArn())
        .isEqualTo(machine + ":1");
  }

  private static Set<String> topics() throws Exception {
    return kafkaAdmin.listTopics().names().get(30, TimeUnit.SECONDS);
  }
}
