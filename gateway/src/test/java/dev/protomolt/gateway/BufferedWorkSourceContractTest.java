package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

/** The in-memory source holds the {@link WorkSource} contract. */
class BufferedWorkSourceContractTest extends WorkSourceContract {

  private BufferedWorkSource buffered;
  private int modules;

  @Override
  protected WorkSource emptySource(String module, String other) {
    buffered = new BufferedWorkSource(16);
    return buffered;
  }

  @Override
  protected void arrive(String module, String key) {
    assertThat(buffered.offer(module, key, payloadOf(key).getBytes(StandardCharsets.UTF_8)))
        .as("room in the queue")
        .isTrue();
  }

  @Override
  protected String uniqueModuleId(String stem) {
    return stem + "-" + ++modules;
  }
}
