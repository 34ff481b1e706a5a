package dev.protomolt.gateway;

import dev.protomolt.engine.activation.EngineFunctions;
import dev.protomolt.engine.activation.GraphAdministration;
import dev.protomolt.engine.activation.KafkaTopicProvisioning;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.DynamoDbDraftStore;
import dev.protomolt.engine.graphs.GraphUpdateFeed;
import dev.protomolt.engine.graphs.KafkaGraphEventPublisher;
import dev.protomolt.engine.graphs.KafkaGraphUpdateListener;
import dev.protomolt.engine.graphs.PipelineGraphGrpcService;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.engine.hop.KafkaEventBus;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The engine's {@code PipelineGraphService} as the gateway serves it in every environment: graph
 * admin and activation built exactly as the graph-admin function builds them ({@link
 * GraphAdministration}), drafts in the deployed drafts table, and subscriptions fed from {@code
 * graph-updates} so a subscriber sees a change whichever process made it.
 *
 * <p>This door's own changes reach its subscribers the same way, through the topic: admin
 * publishes only to Kafka, and the feed hears only the listener, so no event is delivered twice.
 */
final class GraphDoor implements AutoCloseable {

  private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

  private final KafkaGraphEventPublisher events;
  private final KafkaGraphUpdateListener listener;
  private final PipelineGraphGrpcService service;

  private GraphDoor(
      KafkaGraphEventPublisher events,
      KafkaGraphUpdateListener listener,
      PipelineGraphGrpcService service) {
    this.events = events;
    this.listener = listener;
    this.service = service;
  }

  /**
   * @param dynamo the gateway's DynamoDB client, which stays the gateway's to close (the drafts
   *     probe uses it too)
   */
  static GraphDoor open(
      GraphDoorSettings settings,
      GatewayConfig config,
      DynamoDbClient dynamo,
      DataSource ledger,
      SfnClient sfn,
      Admin kafkaAdmin,
      String bootstrap,
      Map<String, Object> connection) {
    Clock clock = Clock.systemUTC();
    KafkaGraphEventPublisher events =
        new KafkaGraphEventPublisher(
            KafkaEventBus.durableProducer(bootstrap, KAFKA_TIMEOUT, connection), KAFKA_TIMEOUT);
    KafkaGraphUpdateListener listener = null;
    try {
      GraphAdministration graphs =
          GraphAdministration.wire(
              ledger,
              sfn,
              settings.executionRoleArn(),
              new EngineFunctions(
                  config.environmentName(),
                  settings.prepareArn(),
                  settings.dispatchArn(),
                  settings.completeArn(),
                  settings.dlqArn()),
              events,
              new PostgresDatasourceBindings(ledger),
              new KafkaTopicProvisioning(kafkaAdmin, KAFKA_TIMEOUT),
              clock);
      // Fan-out only: what reaches the feed already came from graph-updates.
      GraphUpdateFeed feed = new GraphUpdateFeed(event -> {});
      listener = KafkaGraphUpdateListener.start(bootstrap, connection, feed, KAFKA_TIMEOUT);
      DraftService drafts =
          new DraftService(
              new DynamoDbDraftStore(dynamo, settings.draftsTable()), graphs.validator(), clock);
      return new GraphDoor(
          events, listener, new PipelineGraphGrpcService(graphs.admin(), drafts, feed));
    } catch (RuntimeException e) {
      if (listener != null) {
        listener.close();
      }
      events.close();
      throw e;
    }
  }

  PipelineGraphGrpcService service() {
    return service;
  }

  @Override
  public void close() {
    listener.close();
    events.close();
  }
}
