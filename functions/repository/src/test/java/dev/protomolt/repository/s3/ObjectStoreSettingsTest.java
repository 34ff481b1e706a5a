package dev.protomolt.repository.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

class ObjectStoreSettingsTest {

  @Test
  void aLocalStoreIsAnEndpointPathStyleAndStaticKeys() {
    ObjectStoreSettings local =
        ObjectStoreSettings.fromValues(" http://127.0.0.1:9000 ", "true", "key", "secret");

    assertThat(local.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(local.pathStyle()).isTrue();
    assertThat(local.credentials()).isInstanceOf(StaticCredentialsProvider.class);
    assertThat(local.credentials().resolveCredentials().accessKeyId()).isEqualTo("key");
  }

  @Test
  void awsIsNoEndpointVirtualHostsAndTheDefaultChain() {
    ObjectStoreSettings aws = ObjectStoreSettings.fromValues("", null, null, null);

    assertThat(aws.endpoint()).isEmpty();
    assertThat(aws.pathStyle()).isFalse();
    assertThat(aws.credentials()).isInstanceOf(DefaultCredentialsProvider.class);
  }
}
