package dev.protomolt.localstack.iam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Every policy a template gives one role, gathered as IAM would attach them: the role's inline
 * {@code Policies}, its {@code ManagedPolicyArns}, and each {@code AWS::IAM::Policy} or {@code
 * AWS::IAM::ManagedPolicy} whose {@code Roles} refer to it with {@code {"Ref": <role>}} (the form
 * CDK synthesizes). Policy documents are passed through the deployer's intrinsic resolver first.
 */
public final class RolePolicies {

  private RolePolicies() {}

  /**
   * @param template the synthesized CloudFormation template, intrinsics unresolved
   * @param roleLogicalId the logical id of the {@code AWS::IAM::Role}
   * @param resolve resolves {@code Ref}, {@code Fn::GetAtt}, {@code Fn::Join}, ... in a JSON tree
   *     to the local resources' values
   * @throws InvalidPolicyException naming the logical id when the role is missing or a policy is
   *     not one the local cloud can evaluate
   */
  public static List<PolicyDocument> forRole(
      JsonNode template, String roleLogicalId, UnaryOperator<JsonNode> resolve) {
    JsonNode resources = template.path("Resources");
    JsonNode role = resources.get(roleLogicalId);
    if (role == null || !"AWS::IAM::Role".equals(role.path("Type").asText())) {
      throw new InvalidPolicyException(
          roleLogicalId + ": the template has no AWS::IAM::Role with this logical id");
    }
    List<PolicyDocument> policies = new ArrayList<>();
    JsonNode properties = role.path("Properties");
    for (JsonNode inline : properties.path("Policies")) {
      String name = inline.path("PolicyName").asText("(unnamed)");
      policies.add(
          PolicyDocument.parse(
              resolve.apply(inline.get("PolicyDocument")),
              roleLogicalId + " inline policy " + name));
    }
    JsonNode managed = properties.get("ManagedPolicyArns");
    if (managed != null) {
      for (JsonNode arn : resolve.apply(managed)) {
        if (!arn.isTextual()) {
          throw new InvalidPolicyException(
              roleLogicalId + ": ManagedPolicyArns holds " + arn + ", not an ARN string");
        }
        policies.add(ManagedPolicies.document(arn.asText()));
      }
    }
    for (Map.Entry<String, JsonNode> resource : resources.properties()) {
      String type = resource.getValue().path("Type").asText();
      if (!type.equals("AWS::IAM::Policy") && !type.equals("AWS::IAM::ManagedPolicy")) {
        continue;
      }
      JsonNode policy = resource.getValue().path("Properties");
      boolean attached = false;
      for (JsonNode ref : policy.path("Roles")) {
        attached |= roleLogicalId.equals(ref.path("Ref").asText(null));
      }
      if (attached) {
        policies.add(
            PolicyDocument.parse(resolve.apply(policy.get("PolicyDocument")), resource.getKey()));
      }
    }
    return policies;
  }
}
