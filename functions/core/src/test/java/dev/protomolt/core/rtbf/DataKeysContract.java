package dev.protomolt.core.rtbf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link DataKeys} must do; subclassed by the in-memory keys and the KMS adapter. */
public abstract class DataKeysContract {

  protected DataKeys keys;

  protected abstract DataKeys freshKeys() throws Exception;

  @BeforeEach
  void fresh() throws Exception {
    keys = freshKeys();
  }

  @Test
  void aCreatedKeyOpensToTheSameBytesAndCreatingAgainReturnsIt() {
    byte[] created = keys.create("rtbf/acme/doc-1");
    assertThat(created).hasSize(DataKeys.KEY_BYTES);
    assertThat(keys.open("rtbf/acme/doc-1")).isEqualTo(created);
    assertThat(keys.create("rtbf/acme/doc-1"))
        .as("a redelivery finds the same key")
        .isEqualTo(created);
    assertThat(keys.create("rtbf/acme/doc-2")).isNotEqualTo(created);
  }

  @Test
  void aDestroyedKeyIsGoneAndDestroyingAgainDoesNothing() {
    keys.create("rtbf/acme/doc-3");
    keys.destroy("rtbf/acme/doc-3");
    assertThatThrownBy(() -> keys.open("rtbf/acme/doc-3"))
        .isInstanceOf(DataKeyGoneException.class)
        .hasMessageContaining("data key 'rtbf/acme/doc-3' does not exist");
    keys.destroy("rtbf/acme/doc-3");
    assertThatThrownBy(() -> keys.open("rtbf/acme/never")).isInstanceOf(DataKeyGoneException.class);
  }
}
