package dev.protomolt.cdk.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationSetTest {

  @TempDir Path dir;

  @Test
  void theRepositorysMigrationsAreFound() {
    MigrationSet set = MigrationSet.read(Path.of("../../db/migrations"));
    assertThat(set.scripts()).contains("V1__baseline.sql");
    assertThat(set.fingerprint()).hasSize(64);
  }

  @Test
  void theFingerprintChangesExactlyWhenAScriptIsAddedOrEdited() throws IOException {
    Files.writeString(dir.resolve("V1__baseline.sql"), "create table a (id int);");
    Files.writeString(dir.resolve("README.md"), "not a migration");
    String first = MigrationSet.read(dir).fingerprint();
    assertThat(MigrationSet.read(dir).fingerprint()).isEqualTo(first);
    Files.writeString(dir.resolve("README.md"), "still not a migration");
    assertThat(MigrationSet.read(dir).fingerprint()).isEqualTo(first);
    Files.writeString(dir.resolve("V2__more.sql"), "create table b (id int);");
    String second = MigrationSet.read(dir).fingerprint();
    assertThat(second).isNotEqualTo(first);
    Files.writeString(dir.resolve("V2__more.sql"), "create table b (id bigint);");
    assertThat(MigrationSet.read(dir).fingerprint()).isNotEqualTo(second);
  }

  @Test
  void anEmptyOrMissingDirectoryIsAnError() {
    assertThatThrownBy(() -> MigrationSet.read(dir))
        .hasMessageContaining("holds no V<n>__<what>.sql");
    assertThatThrownBy(() -> MigrationSet.read(dir.resolve("nope")))
        .hasMessageContaining("no directory");
  }
}
