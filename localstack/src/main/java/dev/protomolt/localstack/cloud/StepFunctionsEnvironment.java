package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.nio.file.Path;
import java.time.Clock;
import javax.sql.DataSource;

/**
 * Everything the local Step Functions runtime gets from the local cloud.
 *
 * @param requestedPort the configured port, 0 for a free one
 * @param dataDir a folder of its own under the local cloud's data folder
 * @param database the migrated PostgreSQL database that holds durable execution state
 * @param lambdas the runner its Lambda tasks invoke
 * @param accountId the account id in the ARNs it mints
 */
public record StepFunctionsEnvironment(
    int requestedPort,
    Path dataDir,
    DataSource database,
    String jdbcUrl,
    LocalLambdaRunner lambdas,
    String region,
    String accountId,
    Clock clock) {

  public static final String COMPONENT = "Step Functions";
  public static final String PORT_SETTING = LocalCloudSettings.STEP_FUNCTIONS_PORT_SETTING;
}
