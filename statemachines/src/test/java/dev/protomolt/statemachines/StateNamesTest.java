package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StateNamesTest {

  @Test
  void aPlainShortIdIsItsOwnLabel() {
    assertThat(StateNames.label("parser")).isEqualTo("parser");
    assertThat(StateNames.label("7d1e4b52-93a0-4c1e-b7f2-0a9c5e3d8f61"))
        .isEqualTo("7d1e4b52-93a0-4c1e-b7f2-0a9c5e3d8f61");
  }

  @Test
  void oddOrLongIdsGetASanitizedPrefixAndAHash() {
    assertThat(StateNames.label("ocr/tesseract (scanned)"))
        .matches("ocr_tesseract__scanned_--[0-9a-f]{10}");
    assertThat(StateNames.label("a--b")).matches("a__b--[0-9a-f]{10}");
    assertThat(StateNames.label("x".repeat(200)))
        .hasSizeLessThanOrEqualTo(StateNames.MAX_LABEL_LENGTH)
        .endsWith(StateNames.label("x".repeat(200)).substring(StateNames.MAX_LABEL_LENGTH - 10));
    assertThat(StateNames.label("Übersetzer")).matches("_bersetzer--[0-9a-f]{10}");
  }

  @Test
  void labelsFitEveryStateSuffixWithinEightyCharacters() {
    String longest = StateNames.label("y".repeat(500)) + ".ChildAlreadyStarted";
    assertThat(longest.length()).isLessThanOrEqualTo(AslRules.MAX_STATE_NAME_LENGTH);
  }

  @Test
  void idsThatSanitizeAlikeStillGetDistinctLabels() {
    List<String> ids =
        new ArrayList<>(List.of("a b", "a/b", "a_b", "a-b", "a--b", "a__b", "a b--0123456789"));
    for (int i = 0; i < 50; i++) {
      ids.add("z".repeat(120) + i);
    }
    Set<String> labels = new HashSet<>();
    for (String id : ids) {
      assertThat(labels.add(StateNames.label(id))).as("label of %s is new", id).isTrue();
    }
  }
}
