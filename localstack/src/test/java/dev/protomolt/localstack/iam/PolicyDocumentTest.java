package dev.protomolt.localstack.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** What the parser refuses, each refusal naming the statement, the field and the rule. */
class PolicyDocumentTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private static void refused(String document, String... messageParts) throws Exception {
    JsonNode node = json(document);
    assertThatThrownBy(() -> PolicyDocument.parse(node, "FnRole policy"))
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessageContainingAll(messageParts);
  }

  @Test
  void refusesMalformedDocuments() throws Exception {
    refused("[]", "FnRole policy", "must be a JSON object");
    refused("{\"Version\":\"2020-01-01\",\"Statement\":[]}", "Version");
    refused("{}", "Statement is required");
    refused("{\"Statement\":\"x\"}", "Statement must be an object or an array");
  }

  @Test
  void refusesBadStatements() throws Exception {
    refused(
        "{\"Statement\":[{\"Effect\":\"allow\",\"Action\":\"s3:GetObject\",\"Resource\":\"*\"}]}",
        "Statement[0]",
        "Effect must be \"Allow\" or \"Deny\"");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Resource\":\"*\"}}",
        "Statement[0]",
        "exactly one of Action and NotAction");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"NotAction\":\"s3:Put*\","
            + "\"Resource\":\"*\"}}",
        "exactly one of Action and NotAction");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\"}}",
        "exactly one of Resource and NotResource");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"GetObject\",\"Resource\":\"*\"}}",
        "Action 'GetObject' must be '*' or service:action");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"Resource\":\"bucket/*\"}}",
        "Resource 'bucket/*' must be '*' or an ARN");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\","
            + "\"Resource\":\"arn:aws:*:::b\"}}",
        "wildcard in its service segment");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\","
            + "\"Resource\":{\"Fn::GetAtt\":[\"Bucket\",\"Arn\"]}}}",
        "Resource must be a string or a non-empty array",
        "intrinsic left unresolved");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\","
            + "\"Resource\":\"*\"}}",
        "Principal belongs in resource-based policies");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"Resources\":\"*\"}}",
        "unknown field Resources");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\","
            + "\"Resource\":\"arn:aws:s3:::b/${aws:username}/*\"}}",
        "policy variable");
  }

  @Test
  void refusesConditionsItCannotEvaluateFaithfully() throws Exception {
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"Resource\":\"*\","
            + "\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}}}",
        "Condition operator IpAddress is not evaluated");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"Resource\":\"*\","
            + "\"Condition\":{\"Bool\":{\"aws:SecureTransport\":\"true\"}}}}",
        "Condition key aws:SecureTransport is not supplied by the local cloud");
    refused(
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"Resource\":\"*\","
            + "\"Condition\":{\"ForAnyValue:StringEquals\":{\"s3:prefix\":[\"a\"]}}}}",
        "set operator");
  }

  @Test
  void refusesUnknownManagedPolicies() {
    assertThatThrownBy(
            () -> ManagedPolicies.document("arn:aws:iam::aws:policy/AdministratorAccess"))
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessageContaining("ManagedPolicyArns: 'arn:aws:iam::aws:policy/AdministratorAccess'");
  }

  @Test
  void gathersEveryPolicyOfARoleFromATemplate() throws Exception {
    JsonNode template =
        json(
            """
            {"Resources":{
              "FnRole":{"Type":"AWS::IAM::Role","Properties":{
                "AssumeRolePolicyDocument":{"Statement":[{"Effect":"Allow",
                  "Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]},
                "ManagedPolicyArns":[{"Fn::Join":["",["arn:",{"Ref":"AWS::Partition"},
                  ":iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"]]}],
                "Policies":[{"PolicyName":"inline","PolicyDocument":{"Statement":{
                  "Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"}}}]}},
              "FnRoleDefaultPolicy":{"Type":"AWS::IAM::Policy","Properties":{
                "PolicyName":"d","Roles":[{"Ref":"FnRole"}],
                "PolicyDocument":{"Statement":[{"Effect":"Allow","Action":"s3:PutObject",
                  "Resource":{"Fn::Join":["",[{"Fn::GetAtt":["Bucket","Arn"]},"/*"]]}}]}}},
              "OtherPolicy":{"Type":"AWS::IAM::Policy","Properties":{
                "PolicyName":"o","Roles":[{"Ref":"OtherRole"}],
                "PolicyDocument":{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}}}
            }}\
            """);
    // A stand-in for the deployer's resolver: the two intrinsics this template uses.
    UnaryOperator<JsonNode> resolve =
        node -> {
          String text = node.toString();
          text =
              text.replace(
                      "{\"Fn::Join\":[\"\",[\"arn:\",{\"Ref\":\"AWS::Partition\"},"
                          + "\":iam::aws:policy/service-role/AWSLambdaBasicExecutionRole\"]]}",
                      "\"arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole\"")
                  .replace(
                      "{\"Fn::Join\":[\"\",[{\"Fn::GetAtt\":[\"Bucket\",\"Arn\"]},\"/*\"]]}",
                      "\"arn:aws:s3:::b/*\"");
          try {
            return JSON.readTree(text);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    List<PolicyDocument> policies = RolePolicies.forRole(template, "FnRole", resolve);
    assertThat(policies)
        .extracting(PolicyDocument::source)
        .containsExactly(
            "FnRole inline policy inline",
            "AWS managed policy service-role/AWSLambdaBasicExecutionRole",
            "FnRoleDefaultPolicy");
    assertThat(
            PolicyEvaluator.evaluate(policies, AccessRequest.of("s3:PutObject", "arn:aws:s3:::b/k"))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(
                    policies, AccessRequest.of("s3:DeleteObject", "arn:aws:s3:::b/k"))
                .allowed())
        .isFalse();
    assertThatThrownBy(() -> RolePolicies.forRole(template, "Missing", resolve))
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessageContaining("Missing: the template has no AWS::IAM::Role");
  }
}
