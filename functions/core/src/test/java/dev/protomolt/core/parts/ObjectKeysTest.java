package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ObjectKeysTest {
  private static final UUID NODE = UUID.fromString("00000000-0000-3000-8000-00000000abcd");
  private static final String SIGV4_SAFE = "[A-Za-z0-9._/-]+";

  @Test
  void partKeysLiveUnderTheNodePrefix() {
    ObjectKeys keys = ObjectKeys.forNode("acct-1/pipeline/", NODE);

    assertThat(keys.core()).isEqualTo("acct-1/pipeline/" + NODE + "/core.pb");
    assertThat(keys.blobs()).isEqualTo("acct-1/pipeline/" + NODE + "/blobs.pb");
    assertThat(keys.parsed()).isEqualTo("acct-1/pipeline/" + NODE + "/parsed.pb");
    assertThat(keys.chunkSet("sentences-v1"))
        .startsWith("acct-1/pipeline/" + NODE + "/chunks/sentences-v1-")
        .endsWith(".pb");
  }

  @Test
  void aSavesKeysLiveUnderItsOwnWriteSegment() {
    ObjectKeys first = ObjectKeys.forWrite("acct-1/pipeline/", NODE, 1);
    ObjectKeys later = ObjectKeys.forWrite("acct-1/pipeline/", NODE, 0x2aL);

    assertThat(first.core()).isEqualTo("acct-1/pipeline/" + NODE + "/w0000000000000001/core.pb");
    assertThat(later.chunkSet("s")).startsWith("acct-1/pipeline/" + NODE + "/w000000000000002a/");
    assertThat(later.nodeId()).isEqualTo(NODE);
    assertThat(first.core()).matches(SIGV4_SAFE);
    // Distinct tokens never share a key, and the segments sort in token order.
    assertThat(first.core()).isNotEqualTo(later.core());
    assertThat(ObjectKeys.writeSegment(9)).isLessThan(ObjectKeys.writeSegment(10));
  }

  @Test
  void aWriteTokenMustBePositive() {
    assertThatThrownBy(() -> ObjectKeys.forWrite("", NODE, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("write token must be positive");
  }

  @Test
  void chunkKeysAreSigV4SafeAndDistinctForSubKeysThatSanitizeAlike() {
    ObjectKeys keys = ObjectKeys.forNode(NODE);
    List<String> subKeys =
        List.of(
            "a b",
            "a_b",
            "a/b",
            "a?b",
            "a..b",
            "日本語",
            "中文字",
            "%23blank",
            "x".repeat(500),
            "x".repeat(501),
            "../../etc",
            "#blank",
            "#blank#2");
    Set<String> seen = new HashSet<>();

    for (String subKey : subKeys) {
      String key = keys.chunkSet(subKey);
      assertThat(key).matches(SIGV4_SAFE).doesNotContain("..").hasSizeLessThan(200);
      assertThat(seen.add(key)).as("key of %s is unique", subKey).isTrue();
    }
  }

  @Test
  void badPrefixesAndBlankSubKeysAreRefused() {
    assertThatThrownBy(() -> ObjectKeys.forNode("no-slash", NODE))
        .hasMessageContaining("must end with '/'");
    assertThatThrownBy(() -> ObjectKeys.forNode("sp ace/", NODE))
        .hasMessageContaining("A-Z a-z 0-9");
    assertThatThrownBy(() -> ObjectKeys.forNode("", null)).hasMessageContaining("node_id");
    assertThatThrownBy(() -> ObjectKeys.forNode(NODE).chunkSet("")).hasMessageContaining("sub_key");
  }
}
