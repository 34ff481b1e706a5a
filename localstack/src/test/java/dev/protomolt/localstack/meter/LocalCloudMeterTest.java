package dev.protomolt.localstack.meter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The meter counts the local Lambda runner's invocations and their time, per function. */
class LocalCloudMeterTest {

  @Test
  void lambdaInvocationsAndTheirTimeAreCountedPerFunction() {
    LocalLambdaRunner lambdas = new LocalLambdaRunner("us-east-1", "000000000000");
    lambdas.register("meter-ok", (event, context) -> "{}");
    lambdas.register(
        "meter-fails",
        (event, context) -> {
          throw new IllegalStateException("refused");
        });
    Map<String, Long> before = LocalCloudMeter.snapshot();

    lambdas.invoke("meter-ok", "{}");
    lambdas.invoke("meter-ok", "{}");
    LambdaResult failed = lambdas.invoke("meter-fails", "{}");

    assertThat(failed).isInstanceOf(LambdaResult.Failure.class);
    Map<String, Long> gained = LocalCloudMeter.since(before);
    // A failed invocation is billed like any other.
    assertThat(gained)
        .containsEntry("lambda.invocations.meter-ok", 2L)
        .containsEntry("lambda.invocations.meter-fails", 1L);
    assertThat(gained.get("lambda.nanos.meter-ok")).isPositive();
  }
}
