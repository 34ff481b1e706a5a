package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InMemoryLogPartIndexTest extends LogPartIndexContract {

  @Override
  protected LogPartIndex newIndex() {
    return new InMemoryLogPartIndex();
  }

  @Test
  void wordsAreRunsOfLettersAndDigitsInAnyScript() {
    LogKey key = LogKey.workUnitLog("logs", "wu-1");
    index.upsert(key, DocumentPart.of(0, 0, "Größe überschritten: 磁盘已满 (code=507)"));

    assertThat(index.query("GRÖSSE", 10)).isEmpty();
    assertThat(index.query("größe 507", 10)).hasSize(1);
    assertThat(index.query("磁盘已满", 10)).hasSize(1);
    assertThat(index.query("code", 10)).hasSize(1);
    assertThat(index.query("cod", 10)).isEmpty();
  }
}
