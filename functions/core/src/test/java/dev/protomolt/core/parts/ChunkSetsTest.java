package dev.protomolt.core.parts;

import static dev.protomolt.core.parts.SampleDocuments.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkSetsTest {
  @Test
  void consecutiveRunsFormOneSetAndRepeatedRunsGetADisambiguator() {
    List<ChunkSet> sets =
        ChunkSets.of(
            List.of(
                result("a", 1),
                result("a", 1),
                result("b", 1),
                result("a", 1),
                result("b", 1),
                result("a", 1)));

    assertThat(sets).extracting(ChunkSet::subKey).containsExactly("a", "b", "a#2", "b#2", "a#3");
    assertThat(sets).extracting(s -> s.results().size()).containsExactly(2, 1, 1, 1, 1);
    assertThat(sets).extracting(ChunkSet::ordinal).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void everyBlankResultIdIsItsOwnSet() {
    List<ChunkSet> sets =
        ChunkSets.of(List.of(result("", 1), result("", 1), result("x", 1), result("", 1)));

    assertThat(sets)
        .extracting(ChunkSet::subKey)
        .containsExactly("#blank", "#blank#2", "x", "#blank#3");
  }

  @Test
  void noResultsMeansNoSets() {
    assertThat(ChunkSets.of(List.of())).isEmpty();
  }

  @Test
  void literalHashAndPercentInResultIdsCannotCollideWithRunSuffixes() {
    List<ChunkSet> sets =
        ChunkSets.of(
            List.of(
                result("a", 1),
                result("z", 1),
                result("a", 1),
                result("a#2", 1),
                result("%23", 1),
                result("#blank", 1)));

    assertThat(sets)
        .extracting(ChunkSet::subKey)
        .containsExactly("a", "z", "a#2", "a%232", "%2523", "%23blank")
        .doesNotHaveDuplicates();
    for (ChunkSet set : sets) {
      assertThat(ChunkSetKey.parse(set.subKey())).isEqualTo(set.key());
    }
  }

  @Test
  void subKeysParseBackAndMalformedOnesAreRefused() {
    assertThat(ChunkSetKey.parse("#blank#4")).isEqualTo(new ChunkSetKey("", 4));
    assertThat(ChunkSetKey.parse("r%25x#2")).isEqualTo(new ChunkSetKey("r%x", 2));
    assertThatThrownBy(() -> ChunkSetKey.parse(""))
        .hasMessageContaining("sub_key must not be blank");
    assertThatThrownBy(() -> ChunkSetKey.parse("a#1")).hasMessageContaining("n >= 2");
    assertThatThrownBy(() -> ChunkSetKey.parse("a#02")).hasMessageContaining("no leading zeros");
    assertThatThrownBy(() -> ChunkSetKey.parse("a#x")).hasMessageContaining("not a number");
    assertThatThrownBy(() -> ChunkSetKey.parse("a#b#2")).hasMessageContaining("unescaped '#'");
    assertThatThrownBy(() -> ChunkSetKey.parse("a%41")).hasMessageContaining("'%'");
  }
}
