package dev.protomolt.engine.activation;

import dev.protomolt.repository.fixtures.LocalStackLease;
import dev.protomolt.repository.fixtures.LocalStackPool;
import dev.protomolt.repository.fixtures.TestCloud;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.StateMachineListItem;

/** The SDK client and deployment settings the engine's Step Functions tests share. */
public final class EngineTestClients {

  public static final String ROLE = "arn:aws:iam::000000000000:role/protomolt-test";
  public static final EngineFunctions FUNCTIONS =
      new EngineFunctions(
          "test",
          "arn:aws:lambda:us-east-1:000000000000:function:prepare",
          "arn:aws:lambda:us-east-1:000000000000:function:dispatch",
          "arn:aws:lambda:us-east-1:000000000000:function:complete",
          "arn:aws:lambda:us-east-1:000000000000:function:dlq");

  private EngineTestClients() {}

  public static SfnClient sfn(URI endpoint) {
    return SfnClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  /**
   * Step Functions for tests that manage state machines (create, publish, alias) and never need a
   * task to run: the local runtime at {@code localRuntime}, or under
   * {@code protomolt.test.cloud=localstack} a LocalStack container of its own with no state
   * machines, given back when the client is closed. Executions whose tasks invoke the engine's
   * functions stay on the local runtime, which calls them in-process; LocalStack would need them
   * deployed into its Lambda service (decision 0410).
   */
  public static SfnClient controlPlaneSfn(URI localRuntime) {
    if (!TestCloud.usesLocalStack()) {
      return sfn(localRuntime);
    }
    LocalStackLease lease = LocalStackPool.acquire();
    SfnClient client =
        SfnClient.builder()
            .endpointOverride(lease.endpoint())
            .region(Region.of(lease.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(lease.accessKey(), lease.secretKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    // A pooled container may hold the previous test's machines; tests reuse names.
    for (StateMachineListItem machine :
        client.listStateMachinesPaginator(b -> {}).stateMachines()) {
      client.deleteStateMachine(b -> b.stateMachineArn(machine.stateMachineArn()));
    }
    // SfnClient is an interface: closing this view closes the client and returns the container.
    return (SfnClient)
        Proxy.newProxyInstance(
            SfnClient.class.getClassLoader(),
            new Class<?>[] {SfnClient.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(client, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              } finally {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                  lease.close();
                }
              }
            });
  }
}
