package dev.protomolt.localstack.sfn.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.Arns;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.SfnApiException;
import dev.protomolt.localstack.sfn.asl.AslParser;
import dev.protomolt.localstack.sfn.asl.InvalidDefinitionException;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.store.StateMachineStore;
import java.time.Instant;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/** State machines, versions and aliases. */
final class StateMachineOperations {

  private static final Pattern INVALID_NAME_CHARS =
      Pattern.compile("[\\s<>{}\\[\\]?*\"#%\\\\^|~`$&,;:/\\x00-\\x1f\\x7f-\\x9f]");

  private final StateMachineStore store;
  private final Arns arns;
  private final Clock clock;

  StateMachineOperations(StateMachineStore store, Arns arns, Clock clock) {
    this.store = store;
    this.arns = arns;
    this.clock = clock;
  }

  JsonNode create(JsonNode request) {
    String name = Requests.required(request, "name");
    String definition = Requests.required(request, "definition");
    String roleArn =
        Objects.requireNonNullElse(
            Requests.optional(request, "roleArn"),
            "arn:aws:iam::" + arns.account() + ":role/local-step-functions");
    String type = Requests.optional(request, "type");
    if (type != null && !type.equals("STANDARD")) {
      throw new SfnApiException(
          "StateMachineTypeNotSupported",
          "State Machine Type Not "
              + "Supported: the local runtime runs STANDARD workflows only, got "
              + type);
    }
    checkName(name);
    checkDefinition(definition);
    Instant now = clock.now();
    String arn = arns.stateMachine(name);
    StateMachineStore.StateMachine machine =
        new StateMachineStore.StateMachine(
            arn,
            name,
            definition,
            roleArn,
            Requests.optional(request, "description"),
            UUID.randomUUID().toString(),
            now,
            now);
    if (!store.insert(machine)) {
      StateMachineStore.StateMachine existing = store.find(arn);
      // AWS treats a repeated create with the same definition and role as idempotent.
      if (existing == null
          || !existing.definition().equals(definition)
          || !existing.roleArn().equals(roleArn)) {
        throw new SfnApiException(
            "StateMachineAlreadyExists", "State Machine Already Exists: '" + arn + "'");
      }
      machine = existing;
    }
    ObjectNode response = Json.object();
    response.put("stateMachineArn", arn);
    response.put("creationDate", Requests.epochSeconds(machine.createdAt()));
    if (request.path("publish").asBoolean(false)) {
      response.put(
          "stateMachineVersionArn",
          publish(machine, Requests.optional(request, "versionDescription")).arn());
    }
    return response;
  }

  JsonNode update(JsonNode request) {
    StateMachineStore.StateMachine machine = machine(Requests.required(request, "stateMachineArn"));
    String definition = Requests.optional(request, "definition");
    String roleArn = Requests.optional(request, "roleArn");
    if (definition != null) {
      checkDefinition(definition);
    }
    Instant now = clock.now();
    boolean changed =
        (definition != null && !definition.equals(machine.definition()))
            || (roleArn != null && !roleArn.equals(machine.roleArn()));
    StateMachineStore.StateMachine updated =
        new StateMachineStore.StateMachine(
            machine.arn(),
            machine.name(),
            definition == null ? machine.definition() : definition,
            roleArn == null ? machine.roleArn() : roleArn,
            machine.description(),
            changed ? UUID.randomUUID().toString() : machine.revisionId(),
            machine.createdAt(),
            now);
    store.update(updated);
    ObjectNode response = Json.object();
    response.put("updateDate", Requests.epochSeconds(now));
    response.put("revisionId", updated.revisionId());
    if (request.path("publish").asBoolean(false)) {
      response.put(
          "stateMachineVersionArn",
          publish(updated, Requests.optional(request, "versionDescription")).arn());
    }
    return response;
  }

  JsonNode describe(JsonNode request) {
    String arn = Requests.required(request, "stateMachineArn");
    Arns.Target target = arns.parseStateMachine(arn);
    ObjectNode response = Json.object();
    if (target.kind() == Arns.Kind.VERSION) {
      StateMachineStore.Version version = store.findVersion(arns.canonicalStateMachine(arn));
      if (version == null) {
        throw doesNotExist(arn);
      }
      response.put("stateMachineArn", version.arn());
      response.put("name", target.name());
      response.put("status", "ACTIVE");
      response.put("definition", version.definition());
      response.put("roleArn", version.roleArn());
      response.put("type", "STANDARD");
      response.put("creationDate", Requests.epochSeconds(version.createdAt()));
      response.put("revisionId", version.revisionId());
      if (version.description() != null) {
        response.put("description", version.description());
      }
    } else if (target.kind() == Arns.Kind.STATE_MACHINE) {
      StateMachineStore.StateMachine machine = machine(arn);
      response.put("stateMachineArn", machine.arn());
      response.put("name", machine.name());
      response.put("status", "ACTIVE");
      response.put("definition", machine.definition());
      response.put("roleArn", machine.roleArn());
      response.put("type", "STANDARD");
      response.put("creationDate", Requests.epochSeconds(machine.createdAt()));
      response.put("revisionId", machine.revisionId());
      if (machine.description() != null) {
        response.put("description", machine.description());
      }
    } else {
      throw new SfnApiException(
          "InvalidArn",
          "Invalid Arn: DescribeStateMachine takes a state "
              + "machine or version ARN, not an alias: '"
              + arn
              + "'");
    }
    ObjectNode logging = response.putObject("loggingConfiguration");
    logging.put("level", "OFF");
    logging.put("includeExecutionData", false);
    response.putObject("tracingConfiguration").put("enabled", false);
    return response;
  }

  JsonNode list(JsonNode request) {
    ObjectNode response = Json.object();
    ArrayNode items = response.putArray("stateMachines");
    for (StateMachineStore.StateMachine m : store.list()) {
      ObjectNode item = items.addObject();
      item.put("stateMachineArn", m.arn());
      item.put("name", m.name());
      item.put("type", "STANDARD");
      item.put("creationDate", Requests.epochSeconds(m.createdAt()));
    }
    return response;
  }

  JsonNode publishVersion(JsonNode request) {
    StateMachineStore.StateMachine machine = machine(Requests.required(request, "stateMachineArn"));
    String revisionId = Requests.optional(request, "revisionId");
    if (revisionId != null && !revisionId.equals(machine.revisionId())) {
      throw new SfnApiException(
          "ConflictException",
          "The revisionId "
              + revisionId
              + " is not the state machine's current revision "
              + machine.revisionId());
    }
    StateMachineStore.Version version = publish(machine, Requests.optional(request, "description"));
    ObjectNode response = Json.object();
    response.put("creationDate", Requests.epochSeconds(version.createdAt()));
    response.put("stateMachineVersionArn", version.arn());
    return response;
  }

  /**
   * Publishes the current revision. As in AWS, publishing a revision that is already the latest
   * version returns that version instead of a new one.
   */
  private StateMachineStore.Version publish(
      StateMachineStore.StateMachine machine, String description) {
    while (true) {
      StateMachineStore.Version latest = store.latestVersion(machine.arn());
      if (latest != null && latest.revisionId().equals(machine.revisionId())) {
        return latest;
      }
      int number = latest == null ? 1 : latest.version() + 1;
      StateMachineStore.Version version =
          new StateMachineStore.Version(
              arns.version(machine.name(), number),
              machine.arn(),
              number,
              machine.definition(),
              machine.roleArn(),
              machine.revisionId(),
              description,
              clock.now());
      if (store.insertVersion(version)) {
        return version;
      }
    }
  }

  JsonNode createAlias(JsonNode request) {
    String name = Requests.required(request, "name");
    if (name.matches("\\d+") || INVALID_NAME_CHARS.matcher(name).find() || name.length() > 80) {
      throw new SfnApiException(
          "ValidationException",
          "Invalid alias name '"
              + name
              + "': 1 to 80 characters, not only digits, no special characters");
    }
    JsonNode routing = request.get("routingConfiguration");
    String machineArn = checkRouting(routing);
    String machineName = arns.parseStateMachine(machineArn).name();
    Instant now = clock.now();
    StateMachineStore.Alias alias =
        new StateMachineStore.Alias(
            arns.alias(machineName, name),
            machineArn,
            name,
            Requests.optional(request, "description"),
            Json.print(routing),
            now,
            now);
    if (!store.insertAlias(alias)) {
      StateMachineStore.Alias existing = store.findAlias(alias.arn());
      if (!Json.parse(existing.routing()).equals(routing)
          || !Objects.equals(existing.description(), alias.description())) {
        throw new SfnApiException(
            "ConflictException",
            "Alias '" + alias.arn() + "' already exists with a different configuration");
      }
      alias = existing;
    }
    ObjectNode response = Json.object();
    response.put("stateMachineAliasArn", alias.arn());
    response.put("creationDate", Requests.epochSeconds(alias.createdAt()));
    return response;
  }

  JsonNode updateAlias(JsonNode request) {
    StateMachineStore.Alias alias = alias(Requests.required(request, "stateMachineAliasArn"));
    JsonNode routing = request.get("routingConfiguration");
    if (routing != null && !routing.isNull()) {
      String machineArn = checkRouting(routing);
      if (!machineArn.equals(alias.stateMachineArn())) {
        throw new SfnApiException(
            "ValidationException",
            "routingConfiguration must name " + "versions of " + alias.stateMachineArn());
      }
    }
    Instant now = clock.now();
    store.updateAlias(
        new StateMachineStore.Alias(
            alias.arn(),
            alias.stateMachineArn(),
            alias.name(),
            request.has("description")
                ? Requests.optional(request, "description")
                : alias.description(),
            routing == null || routing.isNull() ? alias.routing() : Json.print(routing),
            alias.createdAt(),
            now));
    ObjectNode response = Json.object();
    response.put("updateDate", Requests.epochSeconds(now));
    return response;
  }

  JsonNode describeAlias(JsonNode request) {
    StateMachineStore.Alias alias = alias(Requests.required(request, "stateMachineAliasArn"));
    ObjectNode response = Json.object();
    response.put("stateMachineAliasArn", alias.arn());
    response.put("name", alias.name());
    if (alias.description() != null) {
      response.put("description", alias.description());
    }
    response.set("routingConfiguration", Json.parse(alias.routing()));
    response.put("creationDate", Requests.epochSeconds(alias.createdAt()));
    response.put("updateDate", Requests.epochSeconds(alias.updatedAt()));
    return response;
  }

  /** Checks a routing configuration and returns the state machine its versions belong to. */
  private String checkRouting(JsonNode routing) {
    if (routing == null || !routing.isArray() || routing.isEmpty() || routing.size() > 2) {
      throw new SfnApiException(
          "ValidationException", "routingConfiguration must list one or two " + "versions");
    }
    int total = 0;
    String machineArn = null;
    Set<String> seen = new HashSet<>();
    for (JsonNode entry : routing) {
      String versionArn = Requests.required(entry, "stateMachineVersionArn");
      int weight = entry.path("weight").asInt(-1);
      if (weight < 0 || weight > 100) {
        throw new SfnApiException("ValidationException", "weight must be between 0 and 100");
      }
      total += weight;
      if (arns.parseStateMachine(versionArn).kind() != Arns.Kind.VERSION
          || store.findVersion(arns.canonicalStateMachine(versionArn)) == null) {
        throw new SfnApiException(
            "ResourceNotFound", "Version does not exist: '" + versionArn + "'");
      }
      String owner = arns.stateMachine(arns.parseStateMachine(versionArn).name());
      if (machineArn != null && !machineArn.equals(owner) || !seen.add(versionArn)) {
        throw new SfnApiException(
            "ValidationException",
            "routingConfiguration must name " + "distinct versions of one state machine");
      }
      machineArn = owner;
    }
    if (total != 100) {
      throw new SfnApiException(
          "ValidationException",
          "routingConfiguration weights must add " + "up to 100, got " + total);
    }
    return machineArn;
  }

  private StateMachineStore.StateMachine machine(String arn) {
    Arns.Target target = arns.parseStateMachine(arn);
    if (target.kind() != Arns.Kind.STATE_MACHINE) {
      throw new SfnApiException(
          "ValidationException",
          "Expected a state machine ARN without a " + "version or alias: '" + arn + "'");
    }
    StateMachineStore.StateMachine machine = store.find(arns.stateMachine(target.name()));
    if (machine == null) {
      throw doesNotExist(arn);
    }
    return machine;
  }

  private StateMachineStore.Alias alias(String arn) {
    Arns.Target target = arns.parseStateMachine(arn);
    StateMachineStore.Alias alias =
        target.kind() == Arns.Kind.ALIAS ? store.findAlias(arns.canonicalStateMachine(arn)) : null;
    if (alias == null) {
      throw new SfnApiException("ResourceNotFound", "Resource not found: '" + arn + "'");
    }
    return alias;
  }

  private static SfnApiException doesNotExist(String arn) {
    return new SfnApiException(
        "StateMachineDoesNotExist", "State Machine Does Not Exist: '" + arn + "'");
  }

  private static void checkName(String name) {
    if (name.length() > 80 || INVALID_NAME_CHARS.matcher(name).find()) {
      throw new SfnApiException("InvalidName", "Invalid Name: '" + name + "'");
    }
  }

  private static void checkDefinition(String definition) {
    try {
      AslParser.parse(definition);
    } catch (InvalidDefinitionException e) {
      throw new SfnApiException("InvalidDefinition", e.getMessage());
    }
  }
}
