package dev.protomolt.localstack.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code Ref} and {@code Fn::GetAtt} return for one deployed resource, as AWS documents them
 * for its type, with the local equivalents' values where a local service stands in (the database
 * proxy's endpoint is the embedded PostgreSQL's host).
 */
record ResourceIdentity(JsonNode ref, Map<String, JsonNode> attributes, boolean anyAttribute) {

  JsonNode attribute(String name) {
    JsonNode known = attributes.get(name);
    if (known != null || !anyAttribute) {
      return known;
    }
    // Resources that do nothing locally (networking, alarms) answer any attribute with a stable
    // placeholder: what reads it (a security group rule, an alarm) does not run either.
    return TextNode.valueOf(
        "local-" + name.toLowerCase(java.util.Locale.ROOT) + "-" + ref.asText());
  }

  static ResourceIdentity of(
      TemplateResource resource,
      JsonNode props,
      LocalRole role,
      StackContext stack,
      LocalServices services) {
    String id = resource.logicalId();
    Map<String, JsonNode> att = new LinkedHashMap<>();
    switch (resource.type()) {
      case "AWS::Lambda::Function" -> {
        String name = name(props, "FunctionName", stack, id, 64);
        att.put("Arn", text(stack.arn("lambda", "function:" + name)));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::Lambda::Version" -> {
        String fn = functionName(props.path("FunctionName").asText());
        att.put("Version", text("1"));
        att.put("FunctionArn", text(stack.arn("lambda", "function:" + fn)));
        return new ResourceIdentity(text(stack.arn("lambda", "function:" + fn + ":1")), att, false);
      }
      case "AWS::Lambda::Alias" -> {
        String fn = functionName(props.path("FunctionName").asText());
        String arn = stack.arn("lambda", "function:" + fn + ":" + props.path("Name").asText());
        att.put("AliasArn", text(arn));
        return new ResourceIdentity(text(arn), att, false);
      }
      case "AWS::Lambda::EventSourceMapping" -> {
        att.put("Id", text(uuid(id)));
        att.put(
            "EventSourceMappingArn", text(stack.arn("lambda", "event-source-mapping:" + uuid(id))));
        return new ResourceIdentity(text(uuid(id)), att, false);
      }
      case "AWS::S3::Bucket" -> {
        String name = name(props, "BucketName", stack, id, 63).toLowerCase(java.util.Locale.ROOT);
        att.put("Arn", text("arn:" + StackContext.PARTITION + ":s3:::" + name));
        att.put("DomainName", text(name + ".s3." + StackContext.URL_SUFFIX));
        att.put(
            "RegionalDomainName",
            text(name + ".s3." + stack.region() + "." + StackContext.URL_SUFFIX));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::DynamoDB::Table" -> {
        String name = name(props, "TableName", stack, id, 255);
        att.put("Arn", text(stack.arn("dynamodb", "table/" + name)));
        att.put("StreamArn", text(stack.arn("dynamodb", "table/" + name + "/stream/local")));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::KMS::Key" -> {
        // A stable key id per logical id, so a redeployed stack keeps its key and its data keys.
        String keyId = uuid(stack.stackName() + "/" + id);
        att.put("Arn", text(stack.arn("kms", "key/" + keyId)));
        att.put("KeyId", text(keyId));
        return new ResourceIdentity(text(keyId), att, false);
      }
      case "AWS::StepFunctions::StateMachine" -> {
        String name = name(props, "StateMachineName", stack, id, 80);
        String arn = stack.arn("states", "stateMachine:" + name);
        att.put("Arn", text(arn));
        att.put("Name", text(name));
        return new ResourceIdentity(text(arn), att, false);
      }
      case "AWS::IAM::Role" -> {
        String name = name(props, "RoleName", stack, id, 64);
        att.put("Arn", text(stack.globalArn("iam", "role" + path(props) + name)));
        att.put(
            "RoleId",
            text(
                "AROA"
                    + uuid(id)
                        .replace("-", "")
                        .substring(0, 16)
                        .toUpperCase(java.util.Locale.ROOT)));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::Scheduler::Schedule" -> {
        String name = name(props, "Name", stack, id, 64);
        att.put("Arn", text(stack.arn("scheduler", "schedule/default/" + name)));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::Events::Rule" -> {
        String name = name(props, "Name", stack, id, 64);
        att.put("Arn", text(stack.arn("events", "rule/" + name)));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::MSK::ServerlessCluster", "AWS::MSK::Cluster" -> {
        String name = name(props, "ClusterName", stack, id, 64);
        String arn = stack.arn("kafka", "cluster/" + name + "/" + uuid(id));
        att.put("Arn", text(arn));
        return new ResourceIdentity(text(arn), att, false);
      }
      case "AWS::RDS::DBProxy" -> {
        String name = props.path("DBProxyName").asText(id);
        att.put("Endpoint", text(services.postgresHost()));
        att.put("DBProxyArn", text(stack.arn("rds", "db-proxy:" + name)));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::RDS::DBCluster", "AWS::RDS::DBInstance" -> {
        String port = Integer.toString(services.postgresPort());
        att.put("Endpoint.Address", text(services.postgresHost()));
        att.put("Endpoint.Port", text(port));
        att.put("ReadEndpoint.Address", text(services.postgresHost()));
        att.put(
            "DBClusterArn",
            text(stack.arn("rds", "cluster:" + id.toLowerCase(java.util.Locale.ROOT))));
        return new ResourceIdentity(text(id.toLowerCase(java.util.Locale.ROOT)), att, false);
      }
      case "AWS::SecretsManager::Secret", "AWS::SecretsManager::SecretTargetAttachment" -> {
        String arn = stack.arn("secretsmanager", "secret:" + id + "-local");
        return new ResourceIdentity(text(arn), att, true);
      }
      case "AWS::SNS::Topic" -> {
        String name = name(props, "TopicName", stack, id, 256);
        String arn = stack.arn("sns", name);
        att.put("TopicArn", text(arn));
        att.put("TopicName", text(name));
        return new ResourceIdentity(text(arn), att, false);
      }
      case "AWS::Logs::LogGroup" -> {
        String name = name(props, "LogGroupName", stack, id, 512);
        att.put("Arn", text(stack.arn("logs", "log-group:" + name + ":*")));
        return new ResourceIdentity(text(name), att, false);
      }
      case "AWS::ECS::TaskDefinition" -> {
        String family = props.path("Family").asText(id);
        return new ResourceIdentity(
            text(stack.arn("ecs", "task-definition/" + family + ":1")), att, false);
      }
      default -> {
        // Everything else has a synthetic physical id; custom resources have no attributes
        // locally (ours return none), and NOTHING-roles answer any attribute.
        return new ResourceIdentity(
            text(stack.stackName() + "-" + id),
            att,
            role == LocalRole.NOTHING || role == LocalRole.IAM);
      }
    }
  }

  /** The function name in a name, a function ARN or a qualified ARN, as Lambda accepts all three. */
  static String functionName(String nameOrArn) {
    if (nameOrArn.startsWith("arn:")) {
      String[] parts = nameOrArn.split(":");
      return parts.length >= 7 ? parts[6] : nameOrArn;
    }
    int colon = nameOrArn.indexOf(':');
    return colon < 0 ? nameOrArn : nameOrArn.substring(0, colon);
  }

  private static String name(
      JsonNode props, String field, StackContext stack, String logicalId, int max) {
    JsonNode given = props.path(field);
    if (given.isTextual() && !given.asText().isEmpty()) {
      return given.asText();
    }
    // CloudFormation's generated names: stack name, logical id and a suffix, within the limit.
    String generated = stack.stackName() + "-" + logicalId;
    return generated.length() <= max ? generated : generated.substring(0, max);
  }

  private static String path(JsonNode props) {
    String p = props.path("Path").asText("/");
    return p.isEmpty() ? "/" : p;
  }

  private static String uuid(String logicalId) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256").digest(logicalId.getBytes(StandardCharsets.UTF_8));
      String hex = HexFormat.of().formatHex(h);
      return hex.substring(0, 8)
          + "-"
          + hex.substring(8, 12)
          + "-"
          + hex.substring(12, 16)
          + "-"
          + hex.substring(16, 20)
          + "-"
          + hex.substring(20, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }

  private static JsonNode text(String value) {
    return TextNode.valueOf(value);
  }
}
