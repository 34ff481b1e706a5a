package dev.protomolt.cdk.constructs;

import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.constructs.Construct;

/**
 * DynamoDB tables that replace the seeds' Redis: graph drafts (30-day sliding expiry) and the
 * gateway's work ledger. Both expire items through a TTL attribute; DynamoDB deletes expired items
 * lazily, so readers also treat an item past {@link #TTL_ATTRIBUTE} as absent (ARCHITECTURE §2).
 * On-demand billing: an idle environment pays only for storage.
 */
public final class StateTables extends Construct {

  /** Partition key of both tables (a string). */
  public static final String PARTITION_KEY = "pk";

  /** Epoch-seconds expiry attribute of both tables. */
  public static final String TTL_ATTRIBUTE = "expiresAt";

  /** Validated settings. */
  public record Props(String namePrefix, boolean retainOnDelete) {
    public Props {
      if (namePrefix == null || !namePrefix.matches("[a-zA-Z0-9_.-]{3,200}")) {
        throw new IllegalArgumentException(
            "tables name prefix: DynamoDB name characters only (got " + namePrefix + ")");
      }
    }
  }

  private final Table drafts;
  private final Table workLedger;

  public StateTables(Construct scope, String id, Props props) {
    super(scope, id);
    RemovalPolicy removal = props.retainOnDelete() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.drafts = table("Drafts", props.namePrefix() + "-drafts", removal, props.retainOnDelete());
    this.workLedger =
        table("WorkLedger", props.namePrefix() + "-work-ledger", removal, props.retainOnDelete());
  }

  private Table table(String id, String name, RemovalPolicy removal, boolean recoverable) {
    return Table.Builder.create(this, id)
        .tableName(name)
        .partitionKey(Attribute.builder().name(PARTITION_KEY).type(AttributeType.STRING).build())
        .timeToLiveAttribute(TTL_ATTRIBUTE)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .encryption(TableEncryption.AWS_MANAGED)
        .pointInTimeRecoverySpecification(
            PointInTimeRecoverySpecification.builder()
                .pointInTimeRecoveryEnabled(recoverable)
                .build())
        .removalPolicy(removal)
        .build();
  }

  public Table drafts() {
    return drafts;
  }

  public Table workLedger() {
    return workLedger;
  }
}
