package dev.protomolt.cdk.constructs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * Deploy-time work done by the migrate function, as CloudFormation custom resources (decision
 * 0651): the Flyway schema migration (the same {@code Migrations.apply} the local cloud runs) and
 * the Kafka topics. CDK's provider framework speaks the custom-resource protocol; the migrate
 * function receives the plain event and dispatches on the {@code operation} property:
 * <ul>
 *   <li>{@value #MIGRATE_SCHEMA}: apply {@code db/migrations}; re-run when
 *       {@code migrationsFingerprint} changes, i.e. when a script is added;
 *   <li>{@value #ENSURE_TOPICS}: create each listed topic that does not exist (never delete one).
 * </ul>
 * On {@code Delete} the migrate function does nothing: data outlives a stack update.
 */
public final class Provisioning extends Construct {

  public static final String MIGRATE_SCHEMA = "migrate-schema";
  public static final String ENSURE_TOPICS = "ensure-topics";

  /** Validated settings. */
  public record Props(
      IFunction migrate,
      String migrationsFingerprint,
      List<Messaging.TopicSpec> topics,
      RetentionDays logRetention) {
    public Props {
      if (migrate == null) {
        throw new IllegalArgumentException("provisioning: the migrate function is required");
      }
      if (migrationsFingerprint == null || !migrationsFingerprint.matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException(
            "provisioning: migrationsFingerprint must be a SHA-256"
                + " hex digest (got "
                + migrationsFingerprint
                + ")");
      }
      if (topics == null || topics.isEmpty()) {
        throw new IllegalArgumentException("provisioning: at least one topic is required");
      }
      if (topics.stream().map(Messaging.TopicSpec::name).distinct().count() != topics.size()) {
        throw new IllegalArgumentException("provisioning: topic names must be unique");
      }
      topics = List.copyOf(topics);
    }
  }

  private final CustomResource schema;
  private final CustomResource topics;

  public Provisioning(Construct scope, String id, Props props) {
    super(scope, id);
    Provider provider =
        Provider.Builder.create(this, "Provider")
            .onEventHandler(props.migrate())
            .logGroup(
                LogGroup.Builder.create(this, "ProviderLogs")
                    .retention(props.logRetention())
                    .removalPolicy(RemovalPolicy.DESTROY)
                    .build())
            .build();
    this.schema =
        CustomResource.Builder.create(this, "SchemaMigration")
            .serviceToken(provider.getServiceToken())
            .resourceType("Custom::ProtoMoltSchemaMigration")
            .properties(
                Map.of(
                    "operation",
                    MIGRATE_SCHEMA,
                    "migrationsFingerprint",
                    props.migrationsFingerprint()))
            .build();
    this.topics =
        CustomResource.Builder.create(this, "KafkaTopics")
            .serviceToken(provider.getServiceToken())
            .resourceType("Custom::ProtoMoltKafkaTopics")
            .properties(
                Map.of(
                    "operation",
                    ENSURE_TOPICS,
                    "topics",
                    props.topics().stream()
                        .map(
                            t -> {
                              Map<String, Object> topic = new LinkedHashMap<>();
                              topic.put("name", t.name());
                              topic.put("partitions", t.partitions());
                              return topic;
                            })
                        .toList()))
            .build();
  }

  public CustomResource schema() {
    return schema;
  }

  public CustomResource topics() {
    return topics;
  }
}
