package dev.protomolt.lambda.accounts;

import dev.protomolt.core.store.Drive;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.FilterRule;
import software.amazon.awssdk.services.s3.model.FilterRuleName;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationResponse;
import software.amazon.awssdk.services.s3.model.LambdaFunctionConfiguration;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;

/**
 * The account's rule on the intake bucket through S3's notification configuration: id
 * {@code protomolt-intake-<account>}, prefix {@code <account>/}, {@code s3:ObjectCreated:*}, the
 * intake function's alias as destination. S3 stores the configuration as one document, so adding a
 * rule is read, add, write; two accounts provisioned at once could each overwrite the other's
 * write, so the rule is read back and the write repeated until it is there.
 */
public final class S3IntakeNotificationRules implements IntakeNotificationRules {

  static final int ATTEMPTS = 5;

  private final Function<Drive, S3Client> clients;
  private final String intakeFunctionArn;

  public S3IntakeNotificationRules(Function<Drive, S3Client> clients, String intakeFunctionArn) {
    this.clients = Objects.requireNonNull(clients, "clients");
    this.intakeFunctionArn = Objects.requireNonNull(intakeFunctionArn, "intakeFunctionArn");
  }

  static String ruleId(String accountId) {
    return "protomolt-intake-" + accountId;
  }

  @Override
  public void ensure(Drive intakeDrive, String accountId) {
    S3Client s3 = clients.apply(intakeDrive);
    String bucket = intakeDrive.bucket();
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      NotificationConfiguration current = read(s3, bucket);
      if (has(current, accountId)) {
        return;
      }
      List<LambdaFunctionConfiguration> lambdas =
          new ArrayList<>(current.lambdaFunctionConfigurations());
      // A rule of this id naming another function (an alias that moved) is replaced, not doubled.
      lambdas.removeIf(c -> ruleId(accountId).equals(c.id()));
      lambdas.add(
          LambdaFunctionConfiguration.builder()
              .id(ruleId(accountId))
              .lambdaFunctionArn(intakeFunctionArn)
              .events(Event.S3_OBJECT_CREATED)
              .filter(
                  f ->
                      f.key(
                          k ->
                              k.filterRules(
                                  FilterRule.builder()
                                      .name(FilterRuleName.PREFIX)
                                      .value(accountId + "/")
                                      .build())))
              .build());
      NotificationConfiguration updated =
          current.toBuilder().lambdaFunctionConfigurations(lambdas).build();
      s3.putBucketNotificationConfiguration(
          b -> b.bucket(bucket).notificationConfiguration(updated));
    }
    if (!has(read(s3, bucket), accountId)) {
      throw new IllegalStateException(
          "intake bucket "
              + bucket
              + ": notification rule "
              + ruleId(accountId)
              + " was written "
              + ATTEMPTS
              + " times and is still missing; another writer keeps replacing"
              + " the bucket's notification configuration");
    }
  }

  /** The bucket's whole configuration: topic, queue and EventBridge settings are written back as read. */
  private static NotificationConfiguration read(S3Client s3, String bucket) {
    GetBucketNotificationConfigurationResponse r =
        s3.getBucketNotificationConfiguration(b -> b.bucket(bucket));
    return NotificationConfiguration.builder()
        .lambdaFunctionConfigurations(r.lambdaFunctionConfigurations())
        .topicConfigurations(r.topicConfigurations())
        .queueConfigurations(r.queueConfigurations())
        .eventBridgeConfiguration(r.eventBridgeConfiguration())
        .build();
  }

  private boolean has(NotificationConfiguration config, String accountId) {
    return config.lambdaFunctionConfigurations().stream()
        .anyMatch(
            c ->
                c.id() != null
                    && c.id().equals(ruleId(accountId))
                    && intakeFunctionArn.equals(c.lambdaFunctionArn()));
  }
}
