package dev.protomolt.localstack.iam;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The AWS managed policies a template's roles attach through {@code ManagedPolicyArns}. The local
 * cloud knows only those the stack uses, and of each only its statements as AWS publishes them
 * (CloudWatch Logs and, for functions in a VPC, network interfaces): none of them grants anything
 * on S3, Step Functions, DynamoDB or Lambda, so they never widen what a function may do there. Any
 * other managed policy is refused by name rather than guessed at.
 */
public final class ManagedPolicies {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOGS =
      "{\"Effect\":\"Allow\",\"Action\":[\"logs:CreateLogGroup\",\"logs:CreateLogStream\","
          + "\"logs:PutLogEvents\"],\"Resource\":\"*\"}";
  private static final Map<String, String> DOCUMENTS =
      Map.of(
          "service-role/AWSLambdaBasicExecutionRole",
          "{\"Version\":\"2012-10-17\",\"Statement\":[" + LOGS + "]}",
          "service-role/AWSLambdaVPCAccessExecutionRole",
          "{\"Version\":\"2012-10-17\",\"Statement\":["
              + LOGS
              + ",{\"Effect\":\"Allow\",\"Action\":[\"ec2:CreateNetworkInterface\","
              + "\"ec2:DescribeNetworkInterfaces\",\"ec2:DescribeSubnets\","
              + "\"ec2:DeleteNetworkInterface\",\"ec2:AssignPrivateIpAddresses\","
              + "\"ec2:UnassignPrivateIpAddresses\"],\"Resource\":\"*\"}]}",
          "service-role/AmazonECSTaskExecutionRolePolicy",
          "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":["
              + "\"ecr:GetAuthorizationToken\",\"ecr:BatchCheckLayerAvailability\","
              + "\"ecr:GetDownloadUrlForLayer\",\"ecr:BatchGetImage\",\"logs:CreateLogStream\","
              + "\"logs:PutLogEvents\"],\"Resource\":\"*\"}]}");

  private ManagedPolicies() {}

  /**
   * The document of an AWS managed policy, by ARN ({@code arn:<partition>:iam::aws:policy/<path>}).
   *
   * @throws InvalidPolicyException naming the ARN when it is not one the local cloud knows
   */
  public static PolicyDocument document(String policyArn) {
    String[] parts = policyArn == null ? new String[0] : policyArn.split(":", 6);
    String path =
        parts.length == 6
                && parts[0].equals("arn")
                && parts[2].equals("iam")
                && parts[4].equals("aws")
                && parts[5].startsWith("policy/")
            ? parts[5].substring("policy/".length())
            : null;
    String document = path == null ? null : DOCUMENTS.get(path);
    if (document == null) {
      throw new InvalidPolicyException(
          "ManagedPolicyArns: '"
              + policyArn
              + "' is not an AWS managed policy the local cloud knows (known: "
              + DOCUMENTS.keySet()
              + ")");
    }
    try {
      return PolicyDocument.parse(JSON.readTree(document), "AWS managed policy " + path);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
