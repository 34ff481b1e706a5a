package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogKeyTest {

  @Test
  void workUnitLogsAndExecutionTranscriptsHaveTheirOwnFolders() {
    assertThat(LogKey.workUnitLog("logs-prod", "wu-3f9a.1"))
        .isEqualTo(new LogKey("logs-prod", "logs/work-units/wu-3f9a.1"));
    assertThat(LogKey.executionTranscript("logs-prod", "a1b2c3_d4~e5"))
        .isEqualTo(new LogKey("logs-prod", "logs/executions/a1b2c3_d4~e5"));
  }

  @Test
  void anAccountThatCannotNameACollectionFilesItsLogsUnderThePlatformsOwn() {
    assertThat(LogKey.accountCollection("acme-2.eu")).isEqualTo("acme-2.eu");
    for (String unfit : new String[] {null, "", " ", "a b", "a/", "x".repeat(256)}) {
      assertThat(LogKey.accountCollection(unfit)).as("%s", unfit).isEqualTo(LogKey.UNOWNED);
    }
  }

  @Test
  void pathMustNotBeBlank() {
    assertThatThrownBy(() -> new LogKey("c", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("path: must not be blank");
    assertThatThrownBy(() -> new LogKey("c", null)).hasMessage("path: must not be blank");
  }

  @Test
  void collectionMustNotBeBlank() {
    assertThatThrownBy(() -> new LogKey("", "logs/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("collection: must not be blank");
  }

  @ParameterizedTest
  @ValueSource(strings = {"logs/../secrets", "../x", "logs/..", "logs/./x"})
  void pathMustNotClimbOrStandStill(String path) {
    assertThatThrownBy(() -> new LogKey("c", path))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("path: must not contain a '.' or '..' segment (got \"" + path + "\")");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/logs/x", "logs/x/", "logs//x"})
  void pathSegmentsMustNotBeEmpty(String path) {
    assertThatThrownBy(() -> new LogKey("c", path))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("path: must not start or end with '/' or contain '//' (got \"" + path + "\")");
  }

  @Test
  void pathMustUseSigV4SafeCharacters() {
    assertThatThrownBy(() -> new LogKey("c", "logs/a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "path: must use only A-Z a-z 0-9 - _ . ~ and '/' (SigV4-safe); 'U+0020' at"
                + " index 6 is not allowed (got \"logs/a b\")");
    assertThatThrownBy(() -> new LogKey("c", "logs/é"))
        .hasMessageStartingWith(
            "path: must use only A-Z a-z 0-9 - _ . ~ and '/' (SigV4-safe);" + " 'é'");
    assertThatThrownBy(() -> new LogKey("c", "logs/a+b"))
        .hasMessageStartingWith(
            "path: must use only A-Z a-z 0-9 - _ . ~ and '/' (SigV4-safe);" + " '+'");
    assertThatThrownBy(() -> new LogKey("my bucket", "logs/x"))
        .hasMessageStartingWith("collection: must use only");
  }

  @Test
  void pathIsAtMostAnObjectKeyLong() {
    assertThat(new LogKey("c", "a".repeat(1024)).path()).hasSize(1024);
    assertThatThrownBy(() -> new LogKey("c", "a".repeat(1025)))
        .hasMessage("path: must be at most 1024 characters (got 1025)");
  }

  @Test
  void workUnitIdIsOneSegment() {
    assertThatThrownBy(() -> LogKey.workUnitLog("c", "a/b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("workUnitId: must be a single path segment without '/' (got \"a/b\")");
    assertThatThrownBy(() -> LogKey.executionTranscript("c", ".."))
        .hasMessage("executionName: must not contain a '.' or '..' segment (got \"..\")");
    assertThatThrownBy(() -> LogKey.executionTranscript("c", ""))
        .hasMessage("executionName: must not be blank");
  }
}
