package dev.protomolt.cdk;

import static dev.protomolt.cdk.PlatformFunction.ACCOUNT_EVENTS;
import static dev.protomolt.cdk.PlatformFunction.COMPLETE;
import static dev.protomolt.cdk.PlatformFunction.CONSOLE_API;
import static dev.protomolt.cdk.PlatformFunction.DISPATCH;
import static dev.protomolt.cdk.PlatformFunction.DLQ;
import static dev.protomolt.cdk.PlatformFunction.DLQ_ADMIN;
import static dev.protomolt.cdk.PlatformFunction.GRAPH_ADMIN;
import static dev.protomolt.cdk.PlatformFunction.INDEXING_LEDGER;
import static dev.protomolt.cdk.PlatformFunction.INTAKE;
import static dev.protomolt.cdk.PlatformFunction.MIGRATE;
import static dev.protomolt.cdk.PlatformFunction.PREPARE;
import static dev.protomolt.cdk.PlatformFunction.PURGE;
import static dev.protomolt.cdk.PlatformFunction.RECLAIM;
import static dev.protomolt.cdk.PlatformFunction.RECONCILER;
import static dev.protomolt.cdk.PlatformFunction.REPLAY_PAGE;
import static dev.protomolt.cdk.PlatformFunction.REPLAY_VALIDATE;
import static dev.protomolt.cdk.PlatformFunction.RETENTION;
import static dev.protomolt.cdk.PlatformFunction.SETTLEMENT;

import dev.protomolt.cdk.config.DeployArtifacts;
import dev.protomolt.cdk.config.EnvironmentConfig;
import dev.protomolt.cdk.config.MigrationSet;
import dev.protomolt.cdk.constructs.Alerting;
import dev.protomolt.cdk.constructs.ConsoleSite;
import dev.protomolt.cdk.constructs.Database;
import dev.protomolt.cdk.constructs.FunctionTriggers;
import dev.protomolt.cdk.constructs.FunctionTriggers.KafkaTrigger;
import dev.protomolt.cdk.constructs.FunctionTriggers.ScheduledTrigger;
import dev.protomolt.cdk.constructs.GraphAdminAccess;
import dev.protomolt.cdk.constructs.Messaging;
import dev.protomolt.cdk.constructs.ModuleGateway;
import dev.protomolt.cdk.constructs.Network;
import dev.protomolt.cdk.constructs.OperatorAccess;
import dev.protomolt.cdk.constructs.PipelineFunctions;
import dev.protomolt.cdk.constructs.PlatformStorage;
import dev.protomolt.cdk.constructs.Provisioning;
import dev.protomolt.cdk.constructs.ReplayStateMachine;
import dev.protomolt.cdk.constructs.StateTables;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.names.PlatformVariable;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * One ProtoMolt environment: every construct wired together and each function granted what it
 * needs and nothing else. Everything environment-specific comes from {@link EnvironmentConfig}.
 */
public final class EnvironmentStack extends ZonePinnedStack {

  private final PipelineFunctions functions;
  private final ModuleGateway gateway;
  private final GraphAdminAccess graphAdmin;
  private final ReplayStateMachine replay;
  private final ConsoleSite console;

  public EnvironmentStack(
      Construct scope,
      EnvironmentConfig config,
      DeployArtifacts artifacts,
      MigrationSet migrations) {
    super(
        scope,
        config.prefix(),
        StackProps.builder()
            .stackName(config.prefix())
            .description("ProtoMolt environment " + config.name())
            .env(Environment.builder().account(config.account()).region(config.region()).build())
            // An environment whose database refuses deletion refuses stack deletion as well.
            .terminationProtection(config.database().deletionProtection())
            .build(),
        config.availabilityZones());
    Tags.of(this).add("protomolt:environment", config.name());
    String prefix = config.prefix();
    // Globally unique S3 names: the account keeps two accounts' environments from colliding.
    String bucketPrefix = prefix + "-" + config.account();
    boolean retain = config.storage().retainOnDelete();
    RetentionDays logRetention = logRetention(config.functions().logRetentionDays());

    Network network =
        new Network(
            this,
            "Network",
            new Network.Props(
                config.network().cidr(),
                config.network().natGateways(),
                config.availabilityZones()));
    PlatformStorage storage =
        new PlatformStorage(
            this,
            "Storage",
            new PlatformStorage.Props(
                bucketPrefix, config.storage().cacheStagingExpirationDays(), retain));
    StateTables tables = new StateTables(this, "Tables", new StateTables.Props(prefix, retain));
    Database database =
        new Database(
            this,
            "Database",
            new Database.Props(
                network.vpc(),
                network.dataSubnets(),
                network.appSubnets(),
                config.database().minCapacityAcu(),
                config.database().maxCapacityAcu(),
                config.database().readers(),
                config.database().backupRetentionDays(),
                config.database().deletionProtection(),
                retain));
    Messaging messaging =
        new Messaging(
            this,
            "Messaging",
            new Messaging.Props(
                prefix,
                network.vpc(),
                network.appSubnets(),
                config.messaging().topicPartitions(),
                config.messaging().moduleServices()));

    // Only what the code reads (PlatformVariable; the drift test holds the template to it). Bucket
    // names, prefixes and table names reach the code through the ledger and the config it stores,
    // not through the environment.
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(PlatformVariable.ENV.key(), config.name());
    environment.put(PlatformVariable.DB_HOST.key(), database.proxyEndpoint());
    environment.put(PlatformVariable.DB_PORT.key(), database.port());
    environment.put(PlatformVariable.DB_NAME.key(), Database.DATABASE_NAME);
    environment.put(PlatformVariable.DB_USER.key(), Database.USER);
    environment.put(PlatformVariable.KAFKA_CLUSTER_ARN.key(), messaging.clusterArn());
    // Every function and the gateway sign their spans to X-Ray's regional OTLP endpoint themselves
    // (decision 1797): no collector, sidecar or layer; the roles get xray:PutTraceSegments below.
    environment.put(PlatformVariable.OTLP_ENDPOINT.key(), xrayOtlpEndpoint(config.region()));
    environment.put(PlatformVariable.OTLP_SIGV4_SERVICE.key(), XRAY_SIGNING_SERVICE);

    Map<PlatformFunction, Integer> memory = new EnumMap<>(PlatformFunction.class);
    if (config.functions().memoryMbOverrides() != null) {
      config
          .functions()
          .memoryMbOverrides()
          .forEach((name, mb) -> memory.put(PlatformFunction.byId(name).orElseThrow(), mb));
    }
    this.functions =
        new PipelineFunctions(
            this,
            "Functions",
            new PipelineFunctions.Props(
                prefix,
                Code.fromAsset(artifacts.lambdaCode().toString()),
                network.vpc(),
                network.appSubnets(),
                config.functions().memoryMb(),
                memory,
                config.functions().timeoutSeconds(),
                logRetention,
                environment));
    database.allowFrom(functions.securityGroup(), "functions to the proxy");
    messaging.allowFrom(functions.securityGroup(), "functions to MSK");

    this.graphAdmin =
        new GraphAdminAccess(
            this,
            "GraphAdmin",
            new GraphAdminAccess.Props(
                prefix,
                functions.alias(GRAPH_ADMIN),
                List.of(
                    functions.alias(PREPARE),
                    functions.alias(DISPATCH),
                    functions.alias(COMPLETE),
                    functions.alias(DLQ))));
    // The console API deploys through the same activation as graph admin, so it gets the same
    // settings (decision 1770).
    for (PlatformFunction activates : List.of(GRAPH_ADMIN, CONSOLE_API)) {
      functions.setEnvironment(
          activates,
          PlatformVariable.EXECUTION_ROLE_ARN.key(),
          graphAdmin.executionRole().getRoleArn());
      for (PlatformFunction hop : List.of(PREPARE, DISPATCH, COMPLETE, DLQ)) {
        functions.setEnvironment(
            activates,
            PlatformVariable.valueOf(hop.name() + "_FUNCTION_ARN").key(),
            functions.alias(hop).getFunctionArn());
      }
    }
    // Housekeeping from the environment's config (decision 0671): how long superseded copies are
    // kept, and whether the reconciler deletes the orphans it finds or only reports them.
    functions.setEnvironment(
        RETENTION, PlatformVariable.RETENTION_WINDOW.key(), config.storage().retentionWindow());
    functions.setEnvironment(
        RECONCILER,
        PlatformVariable.RECONCILER_DELETE.key(),
        Boolean.toString(config.storage().reconcilerDeletes()));
    // The hop functions write each execution's transcript unless the environment turns it off
    // (decision 1675).
    for (PlatformFunction hop : List.of(PREPARE, COMPLETE, DLQ)) {
      functions.setEnvironment(
          hop,
          PlatformVariable.EXECUTION_TRANSCRIPTS.key(),
          Boolean.toString(config.functions().writesExecutionTranscripts()));
    }
    // Right-to-be-forgotten bodies are sealed under per-document data keys of this key (decision
    // 1750): intake generates one, Complete one per fan-out child; Prepare and Complete decrypt
    // them to read the body; DLQ only destroys (a ledger row, no KMS call). Nothing else may.
    Key dataKey =
        Key.Builder.create(this, "RtbfDataKey")
            .description(prefix + ": wraps the data keys of right-to-be-forgotten documents")
            .enableKeyRotation(true)
            .build();
    for (PlatformFunction sealer : List.of(INTAKE, PREPARE, COMPLETE, DLQ)) {
      functions.setEnvironment(sealer, PlatformVariable.DATA_KEY_ARN.key(), dataKey.getKeyArn());
    }
    for (PlatformFunction generates : List.of(INTAKE, COMPLETE)) {
      dataKey.grant(functions.alias(generates), "kms:GenerateDataKey", "kms:Decrypt");
    }
    dataKey.grantDecrypt(functions.alias(PREPARE));
    // Account provisioning adds each account's notification rule for this function (decision 0660).
    functions.setEnvironment(
        ACCOUNT_EVENTS,
        PlatformVariable.INTAKE_FUNCTION_ARN.key(),
        functions.alias(INTAKE).getFunctionArn());

    grantFunctions(storage, tables, database, messaging, prefix);
    // Operators redrive failed executions (recovery's first tier) from the CLI or the console.
    OperatorAccess operators = new OperatorAccess(this, "Operators", prefix, graphAdmin);
    operators.grantInvoke(functions.alias(DLQ_ADMIN));
    CfnOutput.Builder.create(this, "OperatorRoleArn")
        .description("Operators assume this role to watch, stop and redrive executions")
        .value(operators.role().getRoleArn())
        .build();

    // The console-started replay (decision 1700): validate and page are its steps.
    this.replay =
        new ReplayStateMachine(
            this,
            "Replay",
            new ReplayStateMachine.Props(
                prefix, functions.alias(REPLAY_VALIDATE), functions.alias(REPLAY_PAGE)));
    // The console starts replays on that machine and keeps the designer's drafts in the graph
    // door's drafts table (decision 1771).
    functions.setEnvironment(
        CONSOLE_API, PlatformVariable.REPLAY_STATE_MACHINE_ARN.key(), replay.arn());
    functions.setEnvironment(
        CONSOLE_API, PlatformVariable.DRAFTS_TABLE.key(), tables.drafts().getTableName());
    IGrantable consoleApi = functions.alias(CONSOLE_API);
    tables.drafts().grantReadWriteData(consoleApi);
    // Its actions (decision 1771): a replay starts the replay machine (and a reprocessed dead
    // letter a graph version: both in the environment's state machine pattern), a redrive is
    // RedriveExecution on the environment's executions, and dead letters are read as the
    // dlq-admin door reads them, in the function's own group name.
    graphAdmin.grantStartExecution(consoleApi);
    consoleApi
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("states:RedriveExecution"))
                .resources(List.of(graphAdmin.executionPattern()))
                .build());
    messaging.grantConsume(consoleApi, group(prefix, CONSOLE_API), Messaging.DLQ_TOPIC_PATTERN);
    // The document view's trace (decision 1830): X-Ray's two trace reads, which name no resource.
    consoleApi
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("xray:GetTraceSummaries", "xray:BatchGetTraces"))
                .resources(List.of("*"))
                .build());

    Provisioning provisioning =
        new Provisioning(
            this,
            "Provisioning",
            new Provisioning.Props(
                functions.alias(MIGRATE),
                migrations.fingerprint(),
                messaging.topics(),
                logRetention));
    // The schema must exist before anything that reads the ledger can be invoked.
    provisioning.schema().getNode().addDependency(database.cluster());

    new FunctionTriggers(
        this,
        "Triggers",
        new FunctionTriggers.Props(
            storage.intake(),
            functions.alias(INTAKE),
            messaging.clusterArn(),
            config.functions().kafkaBatchSize(),
            List.of(
                new KafkaTrigger(functions.alias(PURGE), "storage-purge", group(prefix, PURGE)),
                new KafkaTrigger(
                    functions.alias(RECLAIM), "reclaim-requests", group(prefix, RECLAIM)),
                new KafkaTrigger(
                    functions.alias(RECLAIM), "document-deleted", group(prefix, RECLAIM)),
                new KafkaTrigger(
                    functions.alias(INDEXING_LEDGER),
                    "indexing-receipts",
                    group(prefix, INDEXING_LEDGER)),
                new KafkaTrigger(
                    functions.alias(SETTLEMENT), "indexing-receipts", group(prefix, SETTLEMENT)),
                new KafkaTrigger(
                    functions.alias(ACCOUNT_EVENTS),
                    "account-events",
                    group(prefix, ACCOUNT_EVENTS))),
            List.of(
                new ScheduledTrigger(
                    "Reconciler", functions.alias(RECONCILER), config.schedules().reconciler()),
                new ScheduledTrigger(
                    "Retention", functions.alias(RETENTION), config.schedules().retention())),
            List.of(provisioning.topics(), provisioning.schema())));

    Map<String, String> gatewayEnvironment = new LinkedHashMap<>(environment);
    // The keys GatewayConfig reads (gateway/README.md) that the stack can answer. The consumer
    // group is the one the task role may read in; the module list is the topics it consumes.
    gatewayEnvironment.put(
        PlatformVariable.GATEWAY_MODULES.key(),
        String.join(",", config.messaging().moduleServices()));
    gatewayEnvironment.put(PlatformVariable.GATEWAY_GROUP.key(), prefix + "-gateway");
    gatewayEnvironment.put(PlatformVariable.AWS_REGION.key(), config.region());
    // Sealing a document log stores its original under logs/ in the platform bucket (decision
    // 1674); the task role's grant below is scoped to that prefix.
    gatewayEnvironment.put(PlatformVariable.LOG_BUCKET.key(), storage.platform().getBucketName());
    // A module served through the gateway gets a right-to-be-forgotten body opened in memory and
    // hands back a result the gateway seals again, both under the document's existing data key
    // (decision 1509): Decrypt of that key is all it needs; it never generates or destroys one.
    gatewayEnvironment.put(PlatformVariable.DATA_KEY_ARN.key(), dataKey.getKeyArn());
    // The diagnostics probes exist only where the environment's config switches them on (decision
    // 1790); the drafts probe writes its canary to the graph drafts table the graph door uses.
    gatewayEnvironment.put(
        PlatformVariable.DIAGNOSTICS_ENABLED.key(),
        Boolean.toString(config.gateway().diagnosticsEnabled()));
    // Who may call it: module task roles per module id, operator roles per account (decisions
    // 1740, 1741). Unset lists leave the variables empty, and the gateway then admits nobody.
    gatewayEnvironment.put(
        PlatformVariable.GATEWAY_MODULE_PRINCIPALS.key(),
        GatewayPrincipalSettings.modules(config.gateway().modulePrincipals()));
    gatewayEnvironment.put(
        PlatformVariable.GATEWAY_OPERATOR_PRINCIPALS.key(),
        GatewayPrincipalSettings.operators(config.gateway().operatorPrincipals()));
    // The name callers' tokens must be signed for, so a token captured at one environment's
    // gateway is refused by every other's (decision 1511); clients are told the same value.
    gatewayEnvironment.put(PlatformVariable.GATEWAY_AUDIENCE.key(), prefix + "-gateway");
    // Each account's weight and rate limit in a module service's turns (decision 1658); empty
    // for equal turns. Every task reads the same value, so the shares hold whichever task serves.
    gatewayEnvironment.put(
        PlatformVariable.GATEWAY_ACCOUNT_SHARES.key(),
        GatewayShareSettings.accountShares(config.gateway().accountShares()));
    // The ledger and the brokers reach it as they reach the functions: PROTOMOLT_DB_* (RDS Proxy,
    // IAM token) and PROTOMOLT_KAFKA_CLUSTER_ARN (SASL/IAM), from the shared map (decision 0670).
    // Its graph door activates as graph admin does, so it is told the same role and hop functions,
    // and keeps drafts in the drafts table.
    gatewayEnvironment.put(PlatformVariable.DRAFTS_TABLE.key(), tables.drafts().getTableName());
    gatewayEnvironment.put(
        PlatformVariable.EXECUTION_ROLE_ARN.key(), graphAdmin.executionRole().getRoleArn());
    for (PlatformFunction hop : List.of(PREPARE, DISPATCH, COMPLETE, DLQ)) {
      gatewayEnvironment.put(
          PlatformVariable.valueOf(hop.name() + "_FUNCTION_ARN").key(),
          functions.alias(hop).getFunctionArn());
    }
    this.gateway =
        new ModuleGateway(
            this,
            "Gateway",
            new ModuleGateway.Props(
                prefix,
                config.name(),
                network.vpc(),
                network.appSubnets(),
                config.gateway().isInternetFacing()
                    ? network.publicSubnets()
                    : network.appSubnets(),
                artifacts.gatewayImage(),
                config.gateway().certificateArn(),
                config.gateway().isInternetFacing(),
                config.gateway().allowedCidrs(),
                config.gateway().cpuUnits(),
                config.gateway().memoryMiB(),
                config.gateway().minTasks(),
                config.gateway().maxTasks(),
                config.gateway().scaleOutBacklog(),
                logRetention,
                gatewayEnvironment));
    database.allowFrom(gateway.securityGroup(), "gateway to the proxy");
    messaging.allowFrom(gateway.securityGroup(), "gateway to MSK");
    IGrantable gatewayRole = gateway.taskRole();
    grantTraceExport(gatewayRole);
    messaging.grantConsume(
        gatewayRole, prefix + "-gateway", messaging.moduleTopics().toArray(String[]::new));
    // Each task also reads account-events itself, so a deactivation reaches every task's cache
    // (decision 1744); it reads without a group, so only the topic needs granting.
    messaging.grantConsume(
        gatewayRole, prefix + "-gateway", PlatformTopic.ACCOUNT_EVENTS.topicName());
    graphAdmin.grantTaskResponse(gatewayRole);
    tables.workLedger().grantReadWriteData(gatewayRole);
    database.grantConnect(gatewayRole);
    storage.grantDocumentReadWrite(gatewayRole);
    storage.grantLogOriginals(gatewayRole);
    dataKey.grantDecrypt(gatewayRole);
    // The document store behind the gateway announces tombstones on storage-purge
    // (KafkaPurgeEvents).
    messaging.grantProduce(gatewayRole, "storage-purge");
    // Sink modules' indexing receipts ride their acks; the gateway produces them (decision 1555).
    messaging.grantProduce(gatewayRole, PlatformTopic.INDEXING_RECEIPTS.topicName());
    // The graph door (PipelineGraphService) does what graph admin does: drafts, the state machine
    // lifecycle, graph-updates and the per-node dead-letter topics activation creates. It also
    // follows graph-updates, without a group, to feed its subscriptions (decision 1520).
    tables.drafts().grantReadWriteData(gatewayRole);
    graphAdmin.grantLifecycle(gatewayRole);
    messaging.grantProduce(gatewayRole, PlatformTopic.GRAPH_UPDATES.topicName());
    messaging.grantRead(gatewayRole, PlatformTopic.GRAPH_UPDATES.topicName());
    messaging.grantTopicAdmin(gatewayRole, Messaging.DLQ_TOPIC_PATTERN);
    if (config.gateway().diagnosticsEnabled()) {
      // The probes' own canaries: a record produced and read back on the diagnostics topic (by
      // partition and offset, outside the group); the drafts probe uses the graph door's grant.
      messaging.grantProduce(gatewayRole, PlatformTopic.DIAGNOSTICS.topicName());
      messaging.grantConsume(
          gatewayRole, prefix + "-gateway", PlatformTopic.DIAGNOSTICS.topicName());
    }

    new Alerting(
        this,
        "Alarms",
        new Alerting.Props(
            prefix,
            config.name(),
            config.alarms().emailTargets(),
            config.alarms().deadLetterThreshold(),
            functions.alias(DLQ),
            functions.alias(PURGE),
            graphAdmin.stateMachineArnPrefix()));

    CfnOutput.Builder.create(this, "GatewayEndpoint")
        .description(
            "Modules dial this host on port 443 (gRPC over TLS); point the certificate's DNS name"
                + " at it")
        .value(gateway.loadBalancer().getLoadBalancerDnsName())
        .build();
    CfnOutput.Builder.create(this, "GatewayAudience")
        .description(
            "Callers sign their tokens for this gateway name (PROTOMOLT_GATEWAY_AUDIENCE); the"
                + " gateway refuses a token signed for any other")
        .value(prefix + "-gateway")
        .build();
    this.console =
        new ConsoleSite(
            this,
            "Console",
            new ConsoleSite.Props(
                prefix,
                functions.alias(CONSOLE_API),
                retain,
                artifacts.consoleSite(),
                config.console() == null ? List.of() : config.console().accounts()));
    // The console API holds its callers to the gateway's operator grants (decision 1752): the same
    // operator has the same accounts on both doors. The sign-in's roles are its groups' (decision
    // 1753): the platform group's every account, each account group's its own.
    Map<String, List<String>> consoleOperators = new java.util.TreeMap<>();
    if (config.gateway().operatorPrincipals() != null) {
      consoleOperators.putAll(config.gateway().operatorPrincipals());
    }
    consoleOperators.putAll(console.signIn().operatorGrants());
    functions.setEnvironment(
        CONSOLE_API,
        PlatformVariable.CONSOLE_OPERATOR_PRINCIPALS.key(),
        GatewayPrincipalSettings.operators(consoleOperators));
    CfnOutput.Builder.create(this, "ConsoleUrl")
        .description("The console (static site, and its API under /api/)")
        .value("https://" + console.distribution().getDistributionDomainName() + "/")
        .build();
    CfnOutput.Builder.create(this, "ConsoleAssetsBucket")
        .description("The console's site, uploaded by every deploy")
        .value(console.assets().getBucketName())
        .build();
    CfnOutput.Builder.create(this, "IntakeBucket")
        .description("Uploads here start executions")
        .value(storage.intake().getBucketName())
        .build();
    CfnOutput.Builder.create(this, "PlatformBucket")
        .description(
            "The platform's own drives: PROTOMOLT accounts' pipeline prefixes, CACHE staging,"
                + " sealed log originals")
        .value(storage.platform().getBucketName())
        .build();
  }

  /** The SigV4 service name X-Ray's OTLP endpoint verifies signatures for. */
  static final String XRAY_SIGNING_SERVICE = "xray";

  /** X-Ray's OTLP base endpoint in {@code region}: spans go to {@code <it>/v1/traces}. */
  static String xrayOtlpEndpoint(String region) {
    return "https://xray." + region + ".amazonaws.com";
  }

  /**
   * What a signed OTLP export to X-Ray needs (decision 1797): the endpoint authorizes it as {@code
   * xray:PutTraceSegments}, which takes no resource but {@code *}.
   */
  private static void grantTraceExport(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("xray:PutTraceSegments"))
                .resources(List.of("*"))
                .build());
  }

  /**
   * Who may do what. Each line is a need of the function's application service; a function absent
   * from a line cannot do that thing. Resources are always named (a bucket, a table, a topic, a
   * consumer group, the environment's state machine prefix), never {@code *}, except for an action
   * that takes no resource (X-Ray's span export).
   */
  private void grantFunctions(
      PlatformStorage storage,
      StateTables tables,
      Database database,
      Messaging messaging,
      String prefix) {
    // Every function but migrate reads and writes the ledger through the proxy with IAM auth.
    for (PlatformFunction pf : PlatformFunction.values()) {
      database.grantConnect(functions.alias(pf));
      grantTraceExport(functions.alias(pf));
    }

    IGrantable graphAdminFn = functions.alias(GRAPH_ADMIN);
    tables.drafts().grantReadWriteData(graphAdminFn);
    messaging.grantProduce(graphAdminFn, "graph-updates");
    // Dead-letter topics are per graph node, so graph admin creates them at activation.
    messaging.grantTopicAdmin(graphAdminFn, Messaging.DLQ_TOPIC_PATTERN);

    IGrantable intake = functions.alias(INTAKE);
    storage.grantDocumentReadWrite(intake);
    graphAdmin.grantStartExecution(intake);
    messaging.grantProduce(intake, "pipeline-events");

    // The console API: graph admin's deploy path (publish graph updates, create dead-letter
    // topics, the state machine lifecycle), execution reads for the run viewer, and the module
    // topics' names for the palette. Manifests come from the ledger, so it reads no object.
    IGrantable consoleApi = functions.alias(CONSOLE_API);
    messaging.grantProduce(consoleApi, "graph-updates");
    messaging.grantTopicAdmin(consoleApi, Messaging.DLQ_TOPIC_PATTERN);
    messaging.grantDescribeTopics(consoleApi, Messaging.MODULE_TOPIC_PREFIX + "*");
    graphAdmin.grantLifecycle(consoleApi);
    graphAdmin.grantExecutionReads(consoleApi);

    // The replay state machine's steps: validation resolves the active alias, pages start the
    // executions. Both reach the ledger (the candidates, the replay audit tables) through the
    // proxy grant above (decision 1702). A page also fetches a settled intake copy's source again:
    // it reads the intake object's version and saves a fresh intake copy, as intake does
    // (decision 1524).
    graphAdmin.grantStartExecution(functions.alias(REPLAY_VALIDATE));
    IGrantable replayPage = functions.alias(REPLAY_PAGE);
    graphAdmin.grantStartExecution(replayPage);
    storage.grantDocumentReadWrite(replayPage);

    // Prepare stages a large pre-mapped body as the node's `.pre` copy, records DROPPED step
    // records, and sends the reclaim requests the previous hop left for it once that hop settled
    // (decision 0816), so it writes documents and two topics.
    IGrantable prepare = functions.alias(PREPARE);
    storage.grantDocumentReadWrite(prepare);
    messaging.grantProduce(prepare, "pipeline-events", "reclaim-requests");

    messaging.grantProduce(functions.alias(DISPATCH), Messaging.MODULE_TOPIC_PREFIX + "*");
    // A node its previous Complete prepared (decision 1832) is entered at Work: Dispatch sends the
    // reclaim requests that Complete left once it settled, as Prepare would (decision 0816).
    messaging.grantProduce(functions.alias(DISPATCH), "reclaim-requests");
    // A memoized hop is closed by dispatch itself with the stored output (decision 1812); its
    // memo lookup and the input manifest are ledger reads through the proxy grant above.
    graphAdmin.grantTaskSuccess(functions.alias(DISPATCH));

    IGrantable complete = functions.alias(COMPLETE);
    storage.grantDocumentReadWrite(complete);
    messaging.grantProduce(complete, "pipeline-events", "reclaim-requests");
    // A direct Complete hands the next node's work on itself, as its Work's Dispatch would: it
    // produces to the module's topic, and closes a memoized hop's task (decision 1842).
    messaging.grantProduce(complete, Messaging.MODULE_TOPIC_PREFIX + "*");
    graphAdmin.grantTaskSuccess(complete);

    IGrantable dlq = functions.alias(DLQ);
    storage.grantDocumentReadWrite(dlq);
    messaging.grantProduce(dlq, Messaging.DLQ_TOPIC_PATTERN);
    // A dead-lettered hop still settles the previous hop's CACHE input (decision 0816).
    messaging.grantProduce(dlq, "reclaim-requests");
    // N.DeadLettered waits on a token the dlq function answers itself (decision 1525).
    graphAdmin.grantTaskAnswer(dlq);

    // The dead-letter door reads every graph's DLQ topics (no group commits: it assigns and seeks,
    // in its own group name for the brokers' authorization), starts reprocess executions on graph
    // versions, and records quarantined letters in the ledger.
    IGrantable dlqAdmin = functions.alias(DLQ_ADMIN);
    messaging.grantConsume(dlqAdmin, group(prefix, DLQ_ADMIN), Messaging.DLQ_TOPIC_PATTERN);
    graphAdmin.grantStartExecution(dlqAdmin);

    IGrantable purge = functions.alias(PURGE);
    consume(messaging, purge, prefix, PURGE, "storage-purge");
    storage.grantDocumentReadWrite(purge);

    IGrantable reclaim = functions.alias(RECLAIM);
    consume(messaging, reclaim, prefix, RECLAIM, "reclaim-requests", "document-deleted");
    messaging.grantProduce(reclaim, "storage-purge");

    consume(
        messaging, functions.alias(INDEXING_LEDGER), prefix, INDEXING_LEDGER, "indexing-receipts");

    IGrantable settlement = functions.alias(SETTLEMENT);
    consume(messaging, settlement, prefix, SETTLEMENT, "indexing-receipts");
    storage.grantDocumentReadWrite(settlement);
    messaging.grantProduce(settlement, "storage-purge");

    IGrantable accountEvents = functions.alias(ACCOUNT_EVENTS);
    consume(messaging, accountEvents, prefix, ACCOUNT_EVENTS, "account-events");
    storage.grantDriveProvisioning(accountEvents);
    storage.grantIntakeNotificationRules(accountEvents);

    IGrantable reconciler = functions.alias(RECONCILER);
    storage.grantDocumentRead(reconciler);
    messaging.grantProduce(reconciler, "storage-purge");

    messaging.grantProduce(functions.alias(RETENTION), "storage-purge");

    IGrantable migrate = functions.alias(MIGRATE);
    database.grantSecretRead(migrate);
    List<String> topics = messaging.topics().stream().map(Messaging.TopicSpec::name).toList();
    messaging.grantTopicAdmin(migrate, topics.toArray(String[]::new));
  }

  /** MSK-triggered: read the topics in the function's own group, plus what the poller needs. */
  private static void consume(
      Messaging messaging, IGrantable fn, String prefix, PlatformFunction pf, String... topics) {
    messaging.grantConsume(fn, group(prefix, pf), topics);
    // Lambda's MSK poller describes the VPC the cluster is in; EC2 Describe* accepts only "*".
    fn.getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(
                    List.of(
                        "ec2:DescribeVpcs", "ec2:DescribeSubnets", "ec2:DescribeSecurityGroups"))
                .resources(List.of("*"))
                .build());
  }

  private static String group(String prefix, PlatformFunction pf) {
    return prefix + "-" + pf.id();
  }

  private static RetentionDays logRetention(int days) {
    return switch (days) {
      case 1 -> RetentionDays.ONE_DAY;
      case 3 -> RetentionDays.THREE_DAYS;
      case 5 -> RetentionDays.FIVE_DAYS;
      case 7 -> RetentionDays.ONE_WEEK;
      case 14 -> RetentionDays.TWO_WEEKS;
      case 30 -> RetentionDays.ONE_MONTH;
      case 60 -> RetentionDays.TWO_MONTHS;
      case 90 -> RetentionDays.THREE_MONTHS;
      case 120 -> RetentionDays.FOUR_MONTHS;
      case 150 -> RetentionDays.FIVE_MONTHS;
      case 180 -> RetentionDays.SIX_MONTHS;
      case 365 -> RetentionDays.ONE_YEAR;
      case 400 -> RetentionDays.THIRTEEN_MONTHS;
      case 545 -> RetentionDays.EIGHTEEN_MONTHS;
      case 731 -> RetentionDays.TWO_YEARS;
      case 1096 -> RetentionDays.THREE_YEARS;
      case 1827 -> RetentionDays.FIVE_YEARS;
      case 2192 -> RetentionDays.SIX_YEARS;
      case 2557 -> RetentionDays.SEVEN_YEARS;
      case 2922 -> RetentionDays.EIGHT_YEARS;
      case 3288 -> RetentionDays.NINE_YEARS;
      case 3653 -> RetentionDays.TEN_YEARS;
      default ->
          throw new IllegalArgumentException(
              "functions.logRetentionDays: " + days + " is not a CloudWatch Logs retention period");
    };
  }

  public PipelineFunctions functions() {
    return functions;
  }

  public ModuleGateway gateway() {
    return gateway;
  }

  public ReplayStateMachine replay() {
    return replay;
  }

  public ConsoleSite console() {
    return console;
  }

  public GraphAdminAccess graphAdmin() {
    return graphAdmin;
  }
}
