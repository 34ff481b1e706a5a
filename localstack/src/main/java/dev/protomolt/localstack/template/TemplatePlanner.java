package dev.protomolt.localstack.template;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.iam.InvalidPolicyException;
import dev.protomolt.localstack.iam.PolicyDocument;
import dev.protomolt.localstack.iam.RolePolicies;
import dev.protomolt.localstack.kafka.MskEventSourceMapping;
import dev.protomolt.localstack.sfn.asl.AslParser;
import dev.protomolt.localstack.sfn.asl.InvalidDefinitionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a template against what the local cloud can deploy and resolves it into a {@link
 * TemplatePlan}, collecting every problem (an unsupported type, an unresolvable intrinsic, a handler
 * no runtime has) before anything is started.
 */
public final class TemplatePlanner {

  private static final Pattern SUB_REFERENCE = Pattern.compile("\\$\\{([^}!.][^}.]*)(\\.[^}]*)?}");
  private static final String PROVIDER_TARGET = "USER_ON_EVENT_FUNCTION_ARN";

  private final CloudFormationTemplate template;
  private final StackContext stack;
  private final LocalServices services;
  private final Map<String, String> runtimeEnvironment;
  private final FunctionRuntime functionRuntime;
  private final ContainerRuntime containerRuntime;

  private final List<TemplateProblem> problems = new ArrayList<>();
  private final Map<String, JsonNode> resolved = new HashMap<>();
  private final Map<String, ResourceIdentity> identities = new HashMap<>();
  private final Map<String, LocalRole> roles = new LinkedHashMap<>();
  private final Set<String> skipped = new HashSet<>();
  private IntrinsicResolver resolver;

  private TemplatePlanner(
      CloudFormationTemplate template,
      StackContext stack,
      LocalServices services,
      Map<String, String> runtimeEnvironment,
      FunctionRuntime functionRuntime,
      ContainerRuntime containerRuntime) {
    this.template = template;
    this.stack = stack;
    this.services = services;
    this.runtimeEnvironment = Map.copyOf(runtimeEnvironment);
    this.functionRuntime = functionRuntime;
    this.containerRuntime = containerRuntime;
  }

  /**
   * Plans {@code template}. {@code runtimeEnvironment} is what the local runtime adds to every
   * function's and task's environment (the region, the local endpoints); each also gets its own
   * credentials.
   *
   * @throws InvalidTemplateException naming every resource that cannot be deployed
   */
  public static TemplatePlan plan(
      CloudFormationTemplate template,
      StackContext stack,
      LocalServices services,
      Map<String, String> runtimeEnvironment,
      FunctionRuntime functionRuntime,
      ContainerRuntime containerRuntime) {
    return new TemplatePlanner(
            template, stack, services, runtimeEnvironment, functionRuntime, containerRuntime)
        .run();
  }

  private TemplatePlan run() {
    for (TemplateResource r : template.resources().values()) {
      Optional<LocalResourceTypes.Mapping> mapping = LocalResourceTypes.of(r.type());
      if (mapping.isEmpty()) {
        problems.add(
            new TemplateProblem(
                r.logicalId(),
                r.type(),
                null,
                "is a resource type the local cloud does not deploy (the supported types are"
                    + " the rows of LocalResourceTypes)"));
      } else {
        roles.put(r.logicalId(), mapping.get().role());
      }
    }
    this.resolver =
        new IntrinsicResolver(
            template,
            stack,
            new IntrinsicResolver.Resources() {
              @Override
              public JsonNode ref(String logicalId) {
                ResourceIdentity id = identities.get(logicalId);
                return id == null ? null : id.ref();
              }

              @Override
              public JsonNode getAtt(String logicalId, String attribute) {
                ResourceIdentity id = identities.get(logicalId);
                return id == null ? null : id.attribute(attribute);
              }
            });
    for (String logicalId : order()) {
      TemplateResource r = template.resources().get(logicalId);
      LocalRole role = roles.get(logicalId);
      if (role == null) {
        continue;
      }
      try {
        if (r.condition() != null && !resolver.condition(r.condition(), "Condition")) {
          skipped.add(logicalId);
          continue;
        }
      } catch (UnresolvableException e) {
        problems.add(new TemplateProblem(logicalId, r.type(), e.path(), e.getMessage()));
        continue;
      }
      JsonNode props;
      try {
        props = resolver.resolve(r.properties(), "Properties");
      } catch (UnresolvableException e) {
        problems.add(new TemplateProblem(logicalId, r.type(), e.path(), e.getMessage()));
        // Names are literals in practice: dependents still resolve against the written ones.
        props = r.properties();
      }
      resolved.put(logicalId, props);
      identities.put(logicalId, ResourceIdentity.of(r, props, role, stack, services));
    }
    if (!problems.isEmpty()) {
      throw new InvalidTemplateException(problems);
    }
    TemplatePlan plan = build();
    if (!problems.isEmpty()) {
      throw new InvalidTemplateException(problems);
    }
    return plan;
  }

  private TemplatePlan build() {
    Set<String> providers = providerFunctions();
    List<DeployedFunction> functions = new ArrayList<>();
    Map<String, String> qualified = new TreeMap<>();
    List<TemplatePlan.Bucket> buckets = new ArrayList<>();
    List<TemplatePlan.Table> tables = new ArrayList<>();
    List<String> kmsKeys = new ArrayList<>();
    List<TemplatePlan.Topic> topics = new ArrayList<>();
    List<TemplatePlan.Notification> notifications = new ArrayList<>();
    List<TemplatePlan.KafkaTrigger> triggers = new ArrayList<>();
    List<TemplatePlan.Schedule> schedules = new ArrayList<>();
    List<TemplatePlan.StateMachine> machines = new ArrayList<>();
    List<TemplatePlan.Migration> migrations = new ArrayList<>();
    List<DeployedContainer> containers = new ArrayList<>();
    List<TemplatePlan.Listener> listeners = new ArrayList<>();
    List<TemplatePlan.IamResource> iam = new ArrayList<>();
    for (TemplateResource r : template.resources().values()) {
      String id = r.logicalId();
      if (skipped.contains(id) || !resolved.containsKey(id)) {
        continue;
      }
      JsonNode p = resolved.get(id);
      switch (roles.get(id)) {
        case FUNCTION -> {
          if (!providers.contains(id)) {
            function(r, p).ifPresent(functions::add);
          }
        }
        case FUNCTION_VERSION, FUNCTION_ALIAS ->
            qualified.put(
                identities.get(id).ref().asText(),
                ResourceIdentity.functionName(p.path("FunctionName").asText()));
        case BUCKET ->
            buckets.add(
                new TemplatePlan.Bucket(
                    id,
                    identities.get(id).ref().asText(),
                    p.path("LifecycleConfiguration").path("Rules")));
        case TABLE -> table(r, p).ifPresent(tables::add);
        case KMS_KEY -> kmsKeys.add(identities.get(id).ref().asText());
        case KAFKA_TOPICS -> {
          for (JsonNode t : p.path("topics")) {
            String name = t.path("name").asText("");
            int partitions = t.path("partitions").asInt(1);
            if (name.isBlank() || partitions < 1) {
              problem(r, "Properties.topics", "each topic needs a name and partitions >= 1: " + t);
            } else {
              topics.add(new TemplatePlan.Topic(id, name, partitions));
            }
          }
        }
        case BUCKET_NOTIFICATIONS -> notifications.addAll(notifications(r, p));
        case EVENT_SOURCE_MAPPING -> trigger(r, p).ifPresent(triggers::add);
        case SCHEDULE -> {
          if (!"DISABLED".equals(p.path("State").asText("ENABLED"))) {
            schedules.add(
                new TemplatePlan.Schedule(
                    id,
                    identities.get(id).ref().asText(),
                    p.path("ScheduleExpression").asText(),
                    p.path("Target").path("Arn").asText(),
                    p.path("Target").path("Input").asText("{}")));
          }
        }
        case EVENT_RULE -> {
          // A pattern rule routes events the local cloud does not emit (alarms); a schedule rule
          // runs its Lambda targets on the local clock.
          if (p.has("ScheduleExpression") && !"DISABLED".equals(p.path("State").asText())) {
            for (JsonNode target : p.path("Targets")) {
              schedules.add(
                  new TemplatePlan.Schedule(
                      id,
                      identities.get(id).ref().asText(),
                      p.path("ScheduleExpression").asText(),
                      target.path("Arn").asText(),
                      // Without an Input a rule delivers EventBridge's scheduled event.
                      target.path("Input").isTextual() ? target.path("Input").asText() : null));
            }
          }
        }
        case STATE_MACHINE -> {
          JsonNode def = p.path("DefinitionString");
          String definition = def.isTextual() ? def.asText() : p.path("Definition").toString();
          try {
            // The local runtime's own check, so an unsupported definition fails before anything
            // starts rather than half-way through the deployment.
            AslParser.parse(definition);
          } catch (InvalidDefinitionException e) {
            for (String problem : e.problems()) {
              problem(r, "Properties.DefinitionString", problem);
            }
          }
          machines.add(
              new TemplatePlan.StateMachine(
                  id,
                  identities.get(id).attribute("Name").asText(),
                  definition,
                  p.path("RoleArn").asText()));
        }
        case SCHEMA_MIGRATION -> {
          String token = p.path("ServiceToken").asText();
          String target = onEventTarget(token);
          migrations.add(new TemplatePlan.Migration(id, r.type(), target, p));
        }
        case CONTAINER_TASK -> containers.addAll(containers(r, p));
        case TLS_LISTENER -> listener(r, p).ifPresent(listeners::add);
        case IAM -> iam.add(new TemplatePlan.IamResource(id, r.type(), p));
        case LOCAL_POSTGRES, LOCAL_KAFKA, NOTHING -> {
          // Answered by the local cloud's own services, or nothing to run.
        }
      }
    }
    Set<String> names = new HashSet<>();
    functions.forEach(f -> names.add(f.functionName()));
    for (TemplatePlan.KafkaTrigger t : triggers) {
      requireFunction(
          t.logicalId(),
          "AWS::Lambda::EventSourceMapping",
          "FunctionName",
          t.functionName(),
          names);
    }
    for (TemplatePlan.Schedule s : schedules) {
      requireFunction(
          s.logicalId(), null, "Target.Arn", resolveName(s.functionName(), qualified), names);
    }
    for (TemplatePlan.Notification n : notifications) {
      requireFunction(n.logicalId(), null, "LambdaFunctionArn", n.functionName(), names);
    }
    for (TemplatePlan.Migration m : migrations) {
      requireFunction(
          m.logicalId(), m.type(), "ServiceToken", resolveName(m.functionName(), qualified), names);
    }
    return new TemplatePlan(
        stack,
        List.copyOf(functions),
        Map.copyOf(qualified),
        List.copyOf(buckets),
        List.copyOf(tables),
        List.copyOf(kmsKeys),
        List.copyOf(topics),
        List.copyOf(notifications),
        List.copyOf(triggers),
        List.copyOf(schedules),
        List.copyOf(machines),
        List.copyOf(migrations),
        List.copyOf(containers),
        List.copyOf(listeners),
        List.copyOf(iam),
        Map.copyOf(roles),
        outputs());
  }

  /**
   * The template's outputs, resolved: what {@code cdk deploy} prints and {@code
   * describe-stacks} returns, and how a caller learns the names the stack chose (the intake bucket).
   * An output whose value is not a string is recorded as its JSON.
   */
  private Map<String, String> outputs() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : template.root().path("Outputs").properties()) {
      try {
        JsonNode value = resolver.resolve(e.getValue().path("Value"), "Outputs." + e.getKey());
        out.put(e.getKey(), value.isTextual() ? value.asText() : value.toString());
      } catch (UnresolvableException ex) {
        problems.add(
            new TemplateProblem("Outputs." + e.getKey(), null, ex.path(), ex.getMessage()));
      }
    }
    return Map.copyOf(out);
  }

  private static String resolveName(String arn, Map<String, String> qualified) {
    return ResourceIdentity.functionName(qualified.getOrDefault(arn, arn));
  }

  private void requireFunction(
      String logicalId, String type, String field, String functionName, Set<String> names) {
    if (!names.contains(ResourceIdentity.functionName(functionName))) {
      problems.add(
          new TemplateProblem(
              logicalId,
              type != null ? type : template.resources().get(logicalId).type(),
              field,
              "invokes '" + functionName + "', which is no function this template deploys"));
    }
  }

  private Optional<DeployedFunction> function(TemplateResource r, JsonNode p) {
    String id = r.logicalId();
    Map<String, String> env = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> v : p.path("Environment").path("Variables").properties()) {
      if (!v.getValue().isValueNode()) {
        problem(r, "Properties.Environment.Variables." + v.getKey(), "must resolve to a string");
        return Optional.empty();
      }
      env.put(v.getKey(), v.getValue().asText());
    }
    Map<String, String> templateEnvironment = Map.copyOf(env);
    String handlerProperty = p.path("Handler").asText("");
    Optional<String> handler = functionRuntime.handlerOf(handlerProperty, env);
    if (handler.isEmpty()) {
      problem(
          r,
          "Properties.Handler",
          "'"
              + handlerProperty
              + "'"
              + (env.containsKey("QUARKUS_LAMBDA_HANDLER")
                  ? " with QUARKUS_LAMBDA_HANDLER=" + env.get("QUARKUS_LAMBDA_HANDLER")
                  : "")
              + " names no handler the local function runtime has");
      return Optional.empty();
    }
    String name = identities.get(id).ref().asText();
    int memory = p.path("MemorySize").asInt(128);
    Duration timeout = Duration.ofSeconds(p.path("Timeout").asInt(3));
    FunctionCredentials credentials = FunctionCredentials.of(stack.stackName(), id);
    // What the Lambda runtime sets itself; a template cannot override these reserved keys.
    env.putAll(runtimeEnvironment);
    env.put("AWS_REGION", stack.region());
    env.put("AWS_DEFAULT_REGION", stack.region());
    env.put("AWS_LAMBDA_FUNCTION_NAME", name);
    env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(memory));
    env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
    env.put("_HANDLER", handlerProperty);
    env.put("AWS_ACCESS_KEY_ID", credentials.accessKeyId());
    env.put("AWS_SECRET_ACCESS_KEY", credentials.secretAccessKey());
    JsonNode reserved = p.path("ReservedConcurrentExecutions");
    return Optional.of(
        new DeployedFunction(
            id,
            name,
            identities.get(id).attribute("Arn").asText(),
            handler.get(),
            env,
            referencedId(r.properties().path("Role")),
            p.path("Role").asText(),
            timeout,
            memory,
            reserved.isNumber() ? OptionalInt.of(reserved.asInt()) : OptionalInt.empty(),
            credentials,
            handlerProperty,
            p.path("Runtime").asText(""),
            p.path("Description").asText(""),
            templateEnvironment,
            policies(r, "Properties.Role", referencedId(r.properties().path("Role")))));
  }

  private Optional<TemplatePlan.Table> table(TemplateResource r, JsonNode p) {
    List<TemplatePlan.KeyElement> keys = new ArrayList<>();
    for (JsonNode k : p.path("KeySchema")) {
      keys.add(
          new TemplatePlan.KeyElement(
              k.path("AttributeName").asText(), k.path("KeyType").asText()));
    }
    Map<String, String> types = new LinkedHashMap<>();
    for (JsonNode a : p.path("AttributeDefinitions")) {
      types.put(a.path("AttributeName").asText(), a.path("AttributeType").asText());
    }
    if (keys.isEmpty() || keys.stream().anyMatch(k -> !types.containsKey(k.attribute()))) {
      problem(r, "Properties.KeySchema", "every key attribute needs an AttributeDefinitions entry");
      return Optional.empty();
    }
    JsonNode ttl = p.path("TimeToLiveSpecification");
    String ttlAttribute =
        ttl.path("Enabled").asBoolean(false) ? ttl.path("AttributeName").asText() : null;
    return Optional.of(
        new TemplatePlan.Table(
            r.logicalId(),
            identities.get(r.logicalId()).ref().asText(),
            keys,
            types,
            ttlAttribute));
  }

  private Optional<TemplatePlan.KafkaTrigger> trigger(TemplateResource r, JsonNode p) {
    String source = p.path("EventSourceArn").asText("");
    if (!source.startsWith("arn:" + StackContext.PARTITION + ":kafka:")) {
      problem(
          r,
          "Properties.EventSourceArn",
          "'" + source + "' is not an MSK cluster; only MSK event sources are deployed locally");
      return Optional.empty();
    }
    String position = p.path("StartingPosition").asText("TRIM_HORIZON");
    if (!position.equals("TRIM_HORIZON")) {
      problem(
          r,
          "Properties.StartingPosition",
          "'" + position + "' is not supported locally yet (only TRIM_HORIZON)");
      return Optional.empty();
    }
    List<String> topics = new ArrayList<>();
    p.path("Topics").forEach(t -> topics.add(t.asText()));
    if (topics.isEmpty()) {
      problem(r, "Properties.Topics", "must name at least one topic");
      return Optional.empty();
    }
    int batch = p.path("BatchSize").asInt(100);
    if (batch < 1 || batch > 10_000) {
      problem(r, "Properties.BatchSize", "must be between 1 and 10000, got " + batch);
      return Optional.empty();
    }
    // Unset, Lambda gathers a Kafka batch for half a second; the setting counts whole seconds.
    Duration window = MskEventSourceMapping.DEFAULT_BATCHING_WINDOW;
    JsonNode seconds = p.path("MaximumBatchingWindowInSeconds");
    if (!seconds.isMissingNode()) {
      boolean whole =
          seconds.isIntegralNumber()
              || seconds.isTextual() && seconds.asText().matches("[0-9]{1,3}");
      if (!whole || seconds.asInt() < 0 || seconds.asInt() > 300) {
        problem(
            r,
            "Properties.MaximumBatchingWindowInSeconds",
            "must be a whole number of seconds from 0 to 300, got " + seconds);
        return Optional.empty();
      }
      window = Duration.ofSeconds(seconds.asInt());
    }
    JsonNode group = p.path("AmazonManagedKafkaEventSourceConfig").path("ConsumerGroupId");
    return Optional.of(
        new TemplatePlan.KafkaTrigger(
            r.logicalId(),
            ResourceIdentity.functionName(p.path("FunctionName").asText()),
            topics,
            group.isTextual() ? group.asText() : null,
            batch,
            window,
            position,
            p.path("Enabled").asBoolean(true)));
  }

  private List<TemplatePlan.Notification> notifications(TemplateResource r, JsonNode p) {
    List<TemplatePlan.Notification> out = new ArrayList<>();
    String bucket = p.path("BucketName").asText();
    for (JsonNode c : p.path("NotificationConfiguration").path("LambdaFunctionConfigurations")) {
      String prefix = "";
      String suffix = "";
      for (JsonNode rule : c.path("Filter").path("Key").path("FilterRules")) {
        String name = rule.path("Name").asText().toLowerCase(java.util.Locale.ROOT);
        if (name.equals("prefix")) {
          prefix = rule.path("Value").asText();
        } else if (name.equals("suffix")) {
          suffix = rule.path("Value").asText();
        }
      }
      out.add(
          new TemplatePlan.Notification(
              r.logicalId(),
              bucket,
              prefix,
              suffix,
              ResourceIdentity.functionName(c.path("LambdaFunctionArn").asText())));
    }
    for (String other :
        List.of("QueueConfigurations", "TopicConfigurations", "EventBridgeConfiguration")) {
      if (!p.path("NotificationConfiguration").path(other).isMissingNode()) {
        problem(
            r,
            "Properties.NotificationConfiguration." + other,
            "only Lambda notifications are deployed locally");
      }
    }
    return out;
  }

  /**
   * A TLS listener's forward target: its default action's target group, the ECS service that
   * registers a container with that group, and the service's task definition. Only TLS listeners
   * are deployed: a plaintext one would be a listener the local cloud does not mirror.
   */
  private Optional<TemplatePlan.Listener> listener(TemplateResource r, JsonNode p) {
    if (!"TLS".equals(p.path("Protocol").asText())) {
      problem(r, "Properties.Protocol", "must be TLS: the local cloud mirrors TLS listeners only");
      return Optional.empty();
    }
    int port = p.path("Port").asInt(0);
    String group = null;
    for (JsonNode action : r.properties().path("DefaultActions")) {
      if ("forward".equals(action.path("Type").asText())) {
        group = referencedId(action.path("TargetGroupArn"));
      }
    }
    if (group == null) {
      problem(
          r,
          "Properties.DefaultActions",
          "needs a forward action to a target group of this template");
      return Optional.empty();
    }
    for (TemplateResource service : template.resources().values()) {
      if (!"AWS::ECS::Service".equals(service.type())) {
        continue;
      }
      for (JsonNode lb : service.properties().path("LoadBalancers")) {
        if (group.equals(referencedId(lb.path("TargetGroupArn")))) {
          String task = referencedId(service.properties().path("TaskDefinition"));
          return Optional.of(
              new TemplatePlan.Listener(
                  r.logicalId(),
                  port,
                  task,
                  lb.path("ContainerName").asText(),
                  lb.path("ContainerPort").asInt()));
        }
      }
    }
    problem(
        r,
        "Properties.DefaultActions",
        "its target group " + group + " has no ECS service registering a container with it");
    return Optional.empty();
  }

  private List<DeployedContainer> containers(TemplateResource r, JsonNode p) {
    List<DeployedContainer> out = new ArrayList<>();
    String family = p.path("Family").asText(r.logicalId());
    FunctionCredentials credentials = FunctionCredentials.of(stack.stackName(), r.logicalId());
    for (JsonNode c : p.path("ContainerDefinitions")) {
      String name = c.path("Name").asText();
      if (!containerRuntime.runs(family, name)) {
        problem(
            r,
            "Properties.ContainerDefinitions." + name,
            "is no container the local container runtime can run");
        continue;
      }
      Map<String, String> env = new LinkedHashMap<>();
      for (JsonNode e : c.path("Environment")) {
        env.put(e.path("Name").asText(), e.path("Value").asText());
      }
      env.putAll(runtimeEnvironment);
      env.put("AWS_ACCESS_KEY_ID", credentials.accessKeyId());
      env.put("AWS_SECRET_ACCESS_KEY", credentials.secretAccessKey());
      out.add(
          new DeployedContainer(
              r.logicalId(),
              family,
              name,
              env,
              referencedId(r.properties().path("TaskRoleArn")),
              p.path("TaskRoleArn").asText(),
              credentials,
              policies(
                  r, "Properties.TaskRoleArn", referencedId(r.properties().path("TaskRoleArn")))));
    }
    return out;
  }

  /**
   * The policies of the template's role {@code roleLogicalId}, resolved, as the IAM checks evaluate
   * them; a policy they cannot evaluate is a problem of the resource that runs as the role.
   */
  private List<PolicyDocument> policies(TemplateResource r, String field, String roleLogicalId) {
    if (roleLogicalId == null) {
      return List.of();
    }
    try {
      return RolePolicies.forRole(
          template.root(), roleLogicalId, n -> resolver.resolve(n, "PolicyDocument"));
    } catch (InvalidPolicyException | UnresolvableException e) {
      problem(r, field, "its role's policies cannot be evaluated locally: " + e.getMessage());
      return List.of();
    }
  }

  /** Functions a custom resource's ServiceToken names: CDK providers, not run themselves. */
  private Set<String> providerFunctions() {
    Set<String> out = new HashSet<>();
    for (TemplateResource r : template.resources().values()) {
      String token = referencedId(r.properties().path("ServiceToken"));
      if (token != null && roles.get(r.logicalId()) != LocalRole.FUNCTION) {
        out.add(token);
      }
    }
    return out;
  }

  /**
   * The function a custom resource's create event goes to: a CDK provider framework function hands
   * it to the function it names in {@value #PROVIDER_TARGET}; any other token is that function.
   */
  private String onEventTarget(String serviceToken) {
    for (Map.Entry<String, ResourceIdentity> e : identities.entrySet()) {
      JsonNode arn = e.getValue().attributes().get("Arn");
      if (arn != null
          && arn.asText().equals(serviceToken)
          && roles.get(e.getKey()) == LocalRole.FUNCTION) {
        JsonNode target =
            resolved.get(e.getKey()).path("Environment").path("Variables").path(PROVIDER_TARGET);
        return target.isTextual() ? target.asText() : serviceToken;
      }
    }
    return serviceToken;
  }

  /** The logical id a {@code Ref} or {@code Fn::GetAtt} names, or null. */
  private static String referencedId(JsonNode value) {
    if (value.has("Ref")) {
      return value.get("Ref").asText();
    }
    JsonNode att = value.path("Fn::GetAtt");
    if (att.isArray() && !att.isEmpty()) {
      return att.get(0).asText();
    }
    if (att.isTextual()) {
      return att.asText().split("\\.", 2)[0];
    }
    return null;
  }

  private void problem(TemplateResource r, String field, String rule) {
    problems.add(new TemplateProblem(r.logicalId(), r.type(), field, rule));
  }

  /** Resources in an order where each comes after everything it refers to or depends on. */
  private List<String> order() {
    Map<String, Set<String>> deps = new LinkedHashMap<>();
    for (TemplateResource r : template.resources().values()) {
      Set<String> d = new LinkedHashSet<>(r.dependsOn());
      references(r.properties(), d);
      d.retainAll(template.resources().keySet());
      d.remove(r.logicalId());
      deps.put(r.logicalId(), d);
    }
    List<String> out = new ArrayList<>();
    Set<String> done = new HashSet<>();
    Set<String> visiting = new HashSet<>();
    for (String id : deps.keySet()) {
      visit(id, deps, done, visiting, out);
    }
    return out;
  }

  private void visit(
      String id,
      Map<String, Set<String>> deps,
      Set<String> done,
      Set<String> visiting,
      List<String> out) {
    if (done.contains(id)) {
      return;
    }
    if (!visiting.add(id)) {
      TemplateResource r = template.resources().get(id);
      problems.add(new TemplateProblem(id, r.type(), null, "is part of a dependency cycle"));
      return;
    }
    for (String d : deps.get(id)) {
      visit(d, deps, done, visiting, out);
    }
    visiting.remove(id);
    done.add(id);
    out.add(id);
  }

  private static void references(JsonNode node, Set<String> out) {
    if (node.isArray()) {
      node.forEach(n -> references(n, out));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    if (node.size() == 1 && node.has("Ref") && node.get("Ref").isTextual()) {
      out.add(node.get("Ref").asText());
    }
    String getAtt = referencedGetAtt(node);
    if (getAtt != null) {
      out.add(getAtt);
    }
    JsonNode sub = node.path("Fn::Sub");
    String body = sub.isTextual() ? sub.asText() : sub.isArray() ? sub.path(0).asText("") : null;
    if (body != null) {
      Matcher m = SUB_REFERENCE.matcher(body);
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    node.forEach(n -> references(n, out));
  }

  private static String referencedGetAtt(JsonNode node) {
    if (node.size() != 1 || !node.has("Fn::GetAtt")) {
      return null;
    }
    return referencedId(node);
  }
}
