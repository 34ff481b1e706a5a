package dev.protomolt.cdk.constructs;

import dev.protomolt.cdk.PlatformFunction;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * Every Lambda of the environment, all from the one Quarkus zip. Each function runs Quarkus'
 * stream handler and picks its named handler from {@code QUARKUS_LAMBDA_HANDLER}; each publishes a
 * version with SnapStart on and an alias {@value #ALIAS} that every trigger, the state machines and
 * the custom resources invoke (SnapStart applies only to published versions).
 *
 * <p>The functions run in the VPC's private subnets behind one security group; permissions are
 * granted per function by {@code FunctionGrants}, nothing here grants data access.
 */
public final class PipelineFunctions extends Construct {

  /** The alias every caller invokes. */
  public static final String ALIAS = "live";

  /** Quarkus amazon-lambda's entry point; the handler name inside it comes from the environment. */
  public static final String QUARKUS_HANDLER =
      "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";

  /** Validated settings. */
  public record Props(
      String namePrefix,
      Code code,
      IVpc vpc,
      SubnetSelection subnets,
      int memoryMb,
      Map<PlatformFunction, Integer> memoryMbOverrides,
      int timeoutSeconds,
      RetentionDays logRetention,
      Map<String, String> environment) {
    public Props {
      if (namePrefix == null || namePrefix.isBlank()) {
        throw new IllegalArgumentException("functions name prefix: required");
      }
      if (code == null || vpc == null || subnets == null || logRetention == null) {
        throw new IllegalArgumentException(
            "functions: code, vpc, subnets and logRetention are required");
      }
      if (memoryMb < 512 || memoryMb > 10240) {
        throw new IllegalArgumentException(
            "functions.memoryMb: 512 to 10240 (got " + memoryMb + ")");
      }
      if (timeoutSeconds < 1 || timeoutSeconds > 900) {
        throw new IllegalArgumentException(
            "functions.timeoutSeconds: 1 to 900 (got " + timeoutSeconds + ")");
      }
      memoryMbOverrides = memoryMbOverrides == null ? Map.of() : Map.copyOf(memoryMbOverrides);
      environment = environment == null ? Map.of() : Map.copyOf(environment);
      if (environment.containsKey("QUARKUS_LAMBDA_HANDLER")) {
        throw new IllegalArgumentException(
            "functions.environment: QUARKUS_LAMBDA_HANDLER is set"
                + " per function and must not be shared");
      }
    }
  }

  private final SecurityGroup securityGroup;
  private final Map<PlatformFunction, Function> functions = new EnumMap<>(PlatformFunction.class);
  private final Map<PlatformFunction, Alias> aliases = new EnumMap<>(PlatformFunction.class);

  public PipelineFunctions(Construct scope, String id, Props props) {
    super(scope, id);
    this.securityGroup =
        SecurityGroup.Builder.create(this, "SecurityGroup")
            .vpc(props.vpc())
            .description("ProtoMolt Lambdas: outbound to the proxy, MSK and AWS APIs")
            .allowAllOutbound(true)
            .build();
    for (PlatformFunction pf : PlatformFunction.values()) {
      String name = props.namePrefix() + "-" + pf.id();
      LogGroup logs =
          LogGroup.Builder.create(this, pf.constructId() + "Logs")
              .logGroupName("/aws/lambda/" + name)
              .retention(props.logRetention())
              .removalPolicy(RemovalPolicy.DESTROY)
              .build();
      Map<String, String> environment = new HashMap<>(props.environment());
      environment.put("QUARKUS_LAMBDA_HANDLER", pf.handlerName());
      Function fn =
          Function.Builder.create(this, pf.constructId())
              .functionName(name)
              .description("ProtoMolt " + pf.id() + " (Quarkus handler '" + pf.handlerName() + "')")
              .runtime(Runtime.JAVA_25)
              .architecture(Architecture.ARM_64)
              .handler(QUARKUS_HANDLER)
              .code(props.code())
              .memorySize(props.memoryMbOverrides().getOrDefault(pf, props.memoryMb()))
              .timeout(Duration.seconds(props.timeoutSeconds()))
              .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
              .vpc(props.vpc())
              .vpcSubnets(props.subnets())
              .securityGroups(List.of(securityGroup))
              .logGroup(logs)
              .environment(environment)
              .build();
      // The warning assumes nothing publishes; currentVersion below does, on every change.
      Annotations.of(fn)
          .acknowledgeWarning(
              "@aws-cdk/aws-lambda:snapStartRequirePublish",
              "each function publishes currentVersion behind the live alias");
      Alias alias =
          Alias.Builder.create(this, pf.constructId() + "Live")
              .aliasName(ALIAS)
              .version(fn.getCurrentVersion())
              .build();
      functions.put(pf, fn);
      aliases.put(pf, alias);
    }
  }

  public SecurityGroup securityGroup() {
    return securityGroup;
  }

  /** The alias to invoke and to grant on: it is the published, SnapStart-enabled version. */
  public Alias alias(PlatformFunction pf) {
    return aliases.get(pf);
  }

  public Function function(PlatformFunction pf) {
    return functions.get(pf);
  }

  /** Adds an environment variable to one function (references between functions, resources). */
  public void setEnvironment(PlatformFunction pf, String key, String value) {
    functions.get(pf).addEnvironment(key, value);
  }
}
