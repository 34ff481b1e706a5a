package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.parts.ObjectKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The platform bucket's expiring lifecycle rules, read from the synthesized dev template, against
 * keys made by the store's own key function: every CACHE copy's key is expired by a rule, no
 * PERSIST copy's key is, whatever the drive prefix.
 */
class CacheStagingRuleTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theExpiringRuleMatchesEveryCacheKeyAndNoPersistKey() {
    List<String> prefixes = expiringPrefixes();
    assertThat(prefixes).isNotEmpty();
    UUID node = UUID.fromString("0b7c6f3e-2f5e-4a63-9a3e-6f1d1f2b9c10");
    for (String drivePrefix : List.of("", "acme/pipeline/", "tenants/acme/")) {
      ObjectKeys cache = ObjectKeys.forWrite(drivePrefix, node, false, 1);
      ObjectKeys persist = ObjectKeys.forWrite(drivePrefix, node, true, 1);
      for (String key : List.of(cache.core(), cache.blobs(), cache.parsed())) {
        assertThat(prefixes).as("a rule expiring " + key).anyMatch(key::startsWith);
      }
      for (String key : List.of(persist.core(), persist.blobs(), persist.parsed())) {
        assertThat(prefixes).as("no rule expiring " + key).noneMatch(key::startsWith);
      }
    }
  }

  /** Prefixes of the rules that expire objects in the platform bucket (not the intake bucket). */
  private static List<String> expiringPrefixes() {
    JsonNode template = JSON.valueToTree(TestEnvironments.dev().toJSON());
    List<String> prefixes = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : template.path("Resources").properties()) {
      JsonNode props = e.getValue().path("Properties");
      if (!e.getValue().path("Type").asText().equals("AWS::S3::Bucket")
          || !props.path("BucketName").asText().endsWith("-platform")) {
        continue;
      }
      for (JsonNode rule : props.path("LifecycleConfiguration").path("Rules")) {
        if (rule.has("ExpirationInDays") || rule.has("ExpirationDate")) {
          prefixes.add(rule.path("Prefix").asText(rule.path("Filter").path("Prefix").asText("")));
        }
      }
    }
    return prefixes;
  }
}
