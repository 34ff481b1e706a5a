package dev.protomolt.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link BlobStore} does; each implementation's test extends this. */
public abstract class BlobStoreContract {

  /** The store under test. */
  protected abstract BlobStore store();

  /** A drive the store can write. */
  protected abstract Drive drive();

  /** Another drive reached with the same credentials as {@link #drive()}. */
  protected abstract Drive sibling();

  private static String key() {
    return UUID.randomUUID() + "/core.pb";
  }

  @Test
  void putThenGetReturnsTheBytes() {
    ObjectAddress at = drive().address(key());
    store().put(at, "one".getBytes(StandardCharsets.UTF_8), false);
    store().put(at, "two".getBytes(StandardCharsets.UTF_8), true);

    assertThat(store().get(at)).asString(StandardCharsets.UTF_8).isEqualTo("two");
  }

  @Test
  void aCreateOnlyWriteNeverReplacesDifferentBytes() {
    ObjectAddress at = drive().address(key());
    store().create(at, "first".getBytes(StandardCharsets.UTF_8), true);

    assertThatThrownBy(() -> store().create(at, "second".getBytes(StandardCharsets.UTF_8), false))
        .isInstanceOf(ObjectExistsException.class)
        .hasMessageContaining(at.key());
    assertThat(store().get(at)).asString(StandardCharsets.UTF_8).isEqualTo("first");
  }

  @Test
  void aCreateOnlyWriteRepeatedWithTheSameBytesSucceeds() {
    // What a retried PUT whose first attempt landed looks like to the store.
    ObjectAddress at = drive().address(key());
    store().create(at, "same".getBytes(StandardCharsets.UTF_8), false);
    store().create(at, "same".getBytes(StandardCharsets.UTF_8), false);

    assertThat(store().get(at)).asString(StandardCharsets.UTF_8).isEqualTo("same");
  }

  @Test
  void aMissingObjectIsObjectMissing() {
    ObjectAddress at = drive().address(key());

    assertThatThrownBy(() -> store().get(at)).isInstanceOf(ObjectMissingException.class);
    assertThatThrownBy(() -> store().copy(at, sibling().address(key())))
        .isInstanceOf(ObjectMissingException.class);
  }

  @Test
  void aCopyBetweenDrivesOfOneCredentialStaysServerSide() {
    ObjectAddress from = drive().address(key());
    ObjectAddress to = sibling().address(key());
    byte[] bytes = new byte[4096];
    new Random(7).nextBytes(bytes);
    store().put(from, bytes, false);

    assertThat(store().copy(from, to)).isEqualTo(BlobStore.CopyMode.SERVER_SIDE);
    assertThat(store().get(to)).isEqualTo(bytes);
    assertThat(store().get(from)).isEqualTo(bytes);
  }
}
