package dev.protomolt.lambda.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.lambda.NamedHandlers;
import jakarta.inject.Named;
import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Every handler the zip can build must also be a bean Quarkus can select by name: a handler missing
 * here deploys fine and then fails every invocation in AWS, where the runtime looks the bean up.
 */
class NamedFunctionsTest {

  @Test
  void everyNamedHandlerHasAQuarkusBeanOfTheSameName() {
    var beans =
        Arrays.stream(NamedFunctions.class.getDeclaredClasses())
            .map(c -> c.getAnnotation(Named.class))
            .filter(Objects::nonNull)
            .map(Named::value)
            .toList();
    assertThat(beans).containsExactlyInAnyOrderElementsOf(NamedHandlers.NAMES);
  }
}
