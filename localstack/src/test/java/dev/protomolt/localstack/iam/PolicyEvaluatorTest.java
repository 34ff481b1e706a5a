package dev.protomolt.localstack.iam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AWS's evaluation rules for identity-based policies, on parsed documents, without any server. */
class PolicyEvaluatorTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static PolicyDocument policy(String json) {
    try {
      return PolicyDocument.parse(JSON.readTree(json), "test policy");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static AccessDecision.Outcome decide(String policyJson, String action, String resource) {
    return PolicyEvaluator.evaluate(List.of(policy(policyJson)), AccessRequest.of(action, resource))
        .outcome();
  }

  private static boolean allows(String policyJson, String action, String resource) {
    return decide(policyJson, action, resource) == AccessDecision.Outcome.ALLOWED;
  }

  @Test
  void nothingIsAllowedByDefault() {
    assertThat(PolicyEvaluator.evaluate(List.of(), AccessRequest.of("s3:GetObject", "*")).outcome())
        .isEqualTo(AccessDecision.Outcome.IMPLICITLY_DENIED);
    String other =
        """
        {"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:PutObject",
         "Resource":"arn:aws:s3:::b/*"}}\
        """;
    assertThat(decide(other, "s3:GetObject", "arn:aws:s3:::b/k"))
        .isEqualTo(AccessDecision.Outcome.IMPLICITLY_DENIED);
  }

  @Test
  void statementAsObjectOrArrayAndFieldsAsStringOrArray() {
    String single =
        """
        {"Statement":{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/k"}}\
        """;
    String arrays =
        """
        {"Statement":[{"Effect":"Allow","Action":["s3:PutObject","s3:GetObject"],
          "Resource":["arn:aws:s3:::a/k","arn:aws:s3:::b/k"]}]}\
        """;
    assertThat(allows(single, "s3:GetObject", "arn:aws:s3:::b/k")).isTrue();
    assertThat(allows(arrays, "s3:GetObject", "arn:aws:s3:::b/k")).isTrue();
    assertThat(allows(arrays, "s3:GetObject", "arn:aws:s3:::c/k")).isFalse();
  }

  @Test
  void anExplicitDenyWinsOverAnyAllowInAnyPolicy() {
    PolicyDocument allowAll =
        policy("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}}");
    PolicyDocument denyDelete =
        policy(
            """
            {"Statement":{"Sid":"NoDelete","Effect":"Deny","Action":"s3:Delete*",
              "Resource":"arn:aws:s3:::b/*"}}\
            """);
    AccessDecision denied =
        PolicyEvaluator.evaluate(
            List.of(allowAll, denyDelete), AccessRequest.of("s3:DeleteObject", "arn:aws:s3:::b/k"));
    assertThat(denied.outcome()).isEqualTo(AccessDecision.Outcome.EXPLICITLY_DENIED);
    assertThat(denied.decidingStatement().where()).contains("Sid NoDelete");
    assertThat(denied.reason()).contains("explicit deny");
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(allowAll, denyDelete),
                    AccessRequest.of("s3:GetObject", "arn:aws:s3:::b/k"))
                .allowed())
        .isTrue();
  }

  @Test
  void actionsMatchCaseInsensitivelyWithWildcards() {
    String p =
        """
        {"Statement":{"Effect":"Allow","Action":["S3:get*","states:Send?ask*"],"Resource":"*"}}\
        """;
    assertThat(allows(p, "s3:GetObject", "arn:aws:s3:::b/k")).isTrue();
    assertThat(allows(p, "s3:getobjecttagging", "arn:aws:s3:::b/k")).isTrue();
    assertThat(allows(p, "states:SendTaskSuccess", "*")).isTrue();
    assertThat(allows(p, "states:SendTaskHeartbeat", "*")).isTrue();
    assertThat(allows(p, "s3:PutObject", "arn:aws:s3:::b/k")).isFalse();
    // The service prefix is part of the match: get* of another service is not s3:get*.
    assertThat(allows(p, "dynamodb:GetItem", "*")).isFalse();
  }

  @Test
  void resourcesMatchCaseSensitively() {
    String p =
        """
        {"Statement":{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::Bucket/Key"}}\
        """;
    assertThat(allows(p, "s3:GetObject", "arn:aws:s3:::Bucket/Key")).isTrue();
    assertThat(allows(p, "s3:GetObject", "arn:aws:s3:::bucket/key")).isFalse();
  }

  @Test
  void aStarEndingItsSegmentCoversSlashesAndColonsAfterIt() {
    String s3 =
        """
        {"Statement":{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/docs/*"}}\
        """;
    assertThat(allows(s3, "s3:GetObject", "arn:aws:s3:::b/docs/a/b/c.pdf")).isTrue();
    assertThat(allows(s3, "s3:GetObject", "arn:aws:s3:::b/docs/a:b")).isTrue();
    assertThat(allows(s3, "s3:GetObject", "arn:aws:s3:::b/other/a")).isFalse();
    String machines =
        """
        {"Statement":{"Effect":"Allow","Action":"states:StartExecution",
          "Resource":"arn:aws:states:us-east-1:000000000000:stateMachine:pm-dev-*"}}\
        """;
    String base = "arn:aws:states:us-east-1:000000000000:stateMachine:";
    assertThat(allows(machines, "states:StartExecution", base + "pm-dev-graph")).isTrue();
    assertThat(allows(machines, "states:StartExecution", base + "pm-dev-graph:3")).isTrue();
    assertThat(allows(machines, "states:StartExecution", base + "pm-dev-graph:active")).isTrue();
    assertThat(allows(machines, "states:StartExecution", base + "pm-prod-graph")).isFalse();
  }

  @Test
  void aStarInsideASegmentStaysInIt() {
    String p =
        """
        {"Statement":{"Effect":"Allow","Action":"states:DescribeExecution",
          "Resource":"arn:aws:states:us-east-1:000000000000:execution:pm-*x:run"}}\
        """;
    String base = "arn:aws:states:us-east-1:000000000000:execution:";
    assertThat(allows(p, "states:DescribeExecution", base + "pm-ax:run")).isTrue();
    // "pm-*x" must not swallow "a:b" to reach an "x" in the next segment.
    assertThat(allows(p, "states:DescribeExecution", base + "pm-a:bx:run")).isFalse();
  }

  @Test
  void questionMarkIsExactlyOneCharacterAndNeverAColon() {
    String p =
        """
        {"Statement":{"Effect":"Allow","Action":"dynamodb:GetItem",
          "Resource":"arn:aws:dynamodb:us-east-1:000000000000:table/t?"}}\
        """;
    String base = "arn:aws:dynamodb:us-east-1:000000000000:table/";
    assertThat(allows(p, "dynamodb:GetItem", base + "t1")).isTrue();
    assertThat(allows(p, "dynamodb:GetItem", base + "t")).isFalse();
    assertThat(allows(p, "dynamodb:GetItem", base + "t12")).isFalse();
    String regionWildcard =
        """
        {"Statement":{"Effect":"Allow","Action":"dynamodb:GetItem",
          "Resource":"arn:aws:dynamodb:us-east-?:000000000000:table/t"}}\
        """;
    assertThat(
            allows(
                regionWildcard,
                "dynamodb:GetItem",
                "arn:aws:dynamodb:us-east-1:000000000000:table/t"))
        .isTrue();
  }

  @Test
  void aTableGrantDoesNotCoverItsIndexesUnlessItSaysSo() {
    String table = "arn:aws:dynamodb:us-east-1:000000000000:table/drafts";
    String p =
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"dynamodb:Query\",\"Resource\":\""
            + table
            + "\"}}";
    assertThat(allows(p, "dynamodb:Query", table)).isTrue();
    assertThat(allows(p, "dynamodb:Query", table + "/index/byGraph")).isFalse();
    String withIndexes =
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"dynamodb:Query\",\"Resource\":[\""
            + table
            + "\",\""
            + table
            + "/index/*\"]}}";
    assertThat(allows(withIndexes, "dynamodb:Query", table + "/index/byGraph")).isTrue();
  }

  @Test
  void anUnqualifiedFunctionArnDoesNotCoverItsAliases() {
    String fn = "arn:aws:lambda:us-east-1:000000000000:function:intake";
    String p =
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"lambda:InvokeFunction\",\"Resource\":\""
            + fn
            + "\"}}";
    assertThat(allows(p, "lambda:InvokeFunction", fn)).isTrue();
    assertThat(allows(p, "lambda:InvokeFunction", fn + ":live")).isFalse();
    String withQualifiers =
        "{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"lambda:InvokeFunction\",\"Resource\":[\""
            + fn
            + "\",\""
            + fn
            + ":*\"]}}";
    assertThat(allows(withQualifiers, "lambda:InvokeFunction", fn + ":live")).isTrue();
    // fn ":*" needs the colon: "intake-other" is another function.
    assertThat(
            allows(
                withQualifiers,
                "lambda:InvokeFunction",
                "arn:aws:lambda:us-east-1:000000000000:function:intake-other"))
        .isFalse();
  }

  @Test
  void notActionAllowsEverythingElse() {
    String p =
        """
        {"Statement":{"Effect":"Allow","NotAction":"s3:Delete*","Resource":"arn:aws:s3:::b/*"}}\
        """;
    assertThat(allows(p, "s3:GetObject", "arn:aws:s3:::b/k")).isTrue();
    assertThat(allows(p, "s3:DeleteObject", "arn:aws:s3:::b/k")).isFalse();
    // NotAction says nothing about other resources.
    assertThat(allows(p, "s3:GetObject", "arn:aws:s3:::c/k")).isFalse();
  }

  @Test
  void notResourceAppliesToEveryOtherResource() {
    PolicyDocument allow =
        policy("{\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"s3:*\",\"Resource\":\"*\"}}");
    PolicyDocument denyOutside =
        policy(
            """
            {"Statement":{"Effect":"Deny","Action":"s3:PutObject",
              "NotResource":["arn:aws:s3:::store/*","arn:aws:s3:::intake/copies/*"]}}\
            """);
    List<PolicyDocument> both = List.of(allow, denyOutside);
    assertThat(
            PolicyEvaluator.evaluate(both, AccessRequest.of("s3:PutObject", "arn:aws:s3:::store/a"))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(
                    both, AccessRequest.of("s3:PutObject", "arn:aws:s3:::intake/copies/x"))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(
                    both, AccessRequest.of("s3:PutObject", "arn:aws:s3:::intake/raw/x"))
                .outcome())
        .isEqualTo(AccessDecision.Outcome.EXPLICITLY_DENIED);
  }

  @Test
  void conditionsHoldOnlyWhenTheRequestSatisfiesThem() {
    PolicyDocument passRole =
        policy(
            """
            {"Statement":{"Effect":"Allow","Action":"iam:PassRole",
              "Resource":"arn:aws:iam::000000000000:role/exec",
              "Condition":{"StringEquals":{"iam:PassedToService":"states.amazonaws.com"}}}}\
            """);
    String role = "arn:aws:iam::000000000000:role/exec";
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(passRole),
                    new AccessRequest(
                        "iam:PassRole",
                        role,
                        Map.of("iam:PassedToService", "states.amazonaws.com")))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(passRole),
                    new AccessRequest(
                        "iam:PassRole",
                        role,
                        Map.of("iam:PassedToService", "lambda.amazonaws.com")))
                .allowed())
        .isFalse();
    // A missing key makes a positive operator false.
    assertThat(
            PolicyEvaluator.evaluate(List.of(passRole), AccessRequest.of("iam:PassRole", role))
                .allowed())
        .isFalse();
  }

  @Test
  void negatedAndIfExistsOperatorsTreatAMissingKeyAsAwsDoes() {
    String bucket = "arn:aws:s3:::b";
    PolicyDocument denyOtherPrefixes =
        policy(
            """
            {"Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"arn:aws:s3:::b"},
              {"Effect":"Deny","Action":"s3:ListBucket","Resource":"arn:aws:s3:::b",
               "Condition":{"StringNotLike":{"s3:prefix":["docs/*"]}}}]}\
            """);
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(denyOtherPrefixes),
                    new AccessRequest("s3:ListBucket", bucket, Map.of("s3:prefix", "docs/a")))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(denyOtherPrefixes),
                    new AccessRequest("s3:ListBucket", bucket, Map.of("s3:prefix", "tmp/")))
                .outcome())
        .isEqualTo(AccessDecision.Outcome.EXPLICITLY_DENIED);
    // No prefix at all: a negated operator holds, so the deny applies.
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(denyOtherPrefixes), AccessRequest.of("s3:ListBucket", bucket))
                .outcome())
        .isEqualTo(AccessDecision.Outcome.EXPLICITLY_DENIED);
    PolicyDocument ifExists =
        policy(
            """
            {"Statement":{"Effect":"Allow","Action":"s3:ListBucket","Resource":"arn:aws:s3:::b",
              "Condition":{"StringLikeIfExists":{"s3:prefix":"docs/*"}}}}\
            """);
    assertThat(
            PolicyEvaluator.evaluate(List.of(ifExists), AccessRequest.of("s3:ListBucket", bucket))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(ifExists),
                    new AccessRequest("s3:ListBucket", bucket, Map.of("s3:prefix", "tmp/")))
                .allowed())
        .isFalse();
  }

  @Test
  void nullOperatorTestsPresence() {
    PolicyDocument p =
        policy(
            """
            {"Statement":{"Effect":"Allow","Action":"s3:ListBucket","Resource":"*",
              "Condition":{"Null":{"s3:prefix":"false"}}}}\
            """);
    assertThat(
            PolicyEvaluator.evaluate(
                    List.of(p), new AccessRequest("s3:ListBucket", "*", Map.of("s3:prefix", "")))
                .allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(List.of(p), AccessRequest.of("s3:ListBucket", "*")).allowed())
        .isFalse();
  }

  @Test
  void managedLambdaPoliciesGrantNothingOnTheCheckedServices() {
    PolicyDocument basic =
        ManagedPolicies.document(
            "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole");
    PolicyDocument vpc =
        ManagedPolicies.document(
            "arn:aws:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole");
    List<PolicyDocument> both = List.of(basic, vpc);
    assertThat(PolicyEvaluator.evaluate(both, AccessRequest.of("logs:PutLogEvents", "*")).allowed())
        .isTrue();
    assertThat(
            PolicyEvaluator.evaluate(both, AccessRequest.of("ec2:CreateNetworkInterface", "*"))
                .allowed())
        .isTrue();
    for (String action :
        List.of(
            "s3:GetObject", "states:StartExecution", "dynamodb:GetItem", "lambda:InvokeFunction")) {
      assertThat(PolicyEvaluator.evaluate(both, AccessRequest.of(action, "*")).allowed())
          .as(action)
          .isFalse();
    }
  }
}
