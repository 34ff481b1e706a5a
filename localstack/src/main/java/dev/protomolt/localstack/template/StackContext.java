package dev.protomolt.localstack.template;

import java.util.Objects;

/**
 * What CloudFormation's pseudo parameters resolve to for one local deployment: {@code
 * AWS::StackName}, {@code AWS::Region}, {@code AWS::AccountId}, {@code AWS::Partition} and {@code
 * AWS::URLSuffix}.
 */
public record StackContext(String stackName, String region, String accountId) {

  public static final String PARTITION = "aws";
  public static final String URL_SUFFIX = "amazonaws.com";

  public StackContext {
    Objects.requireNonNull(stackName, "stackName");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(accountId, "accountId");
  }

  /** An ARN in this partition, region and account: {@code arn:aws:<service>:<region>:<acct>:...}. */
  public String arn(String service, String resource) {
    return "arn:" + PARTITION + ":" + service + ":" + region + ":" + accountId + ":" + resource;
  }

  /** An ARN of a global service (IAM): no region. */
  public String globalArn(String service, String resource) {
    return "arn:" + PARTITION + ":" + service + "::" + accountId + ":" + resource;
  }
}
