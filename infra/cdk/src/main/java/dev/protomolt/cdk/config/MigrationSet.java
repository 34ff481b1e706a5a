package dev.protomolt.cdk.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The Flyway scripts in {@code db/migrations}, reduced to a fingerprint. The schema migration
 * custom resource carries it as a property, so CloudFormation re-runs the migrate function exactly
 * when a script is added (and never on an unrelated deploy).
 */
public record MigrationSet(List<String> scripts, String fingerprint) {

  /** Reads every {@code V*.sql} under {@code directory}; fails naming the directory if none. */
  public static MigrationSet read(Path directory) {
    if (!Files.isDirectory(directory)) {
      throw new InvalidConfigException(
          "migrations",
          List.of(
              new ConfigProblem(
                  "db/migrations", "no directory at " + directory.toAbsolutePath().normalize())));
    }
    try (var files = Files.list(directory)) {
      List<Path> scripts =
          files
              .filter(p -> p.getFileName().toString().matches("V\\d+__.+\\.sql"))
              .sorted()
              .toList();
      if (scripts.isEmpty()) {
        throw new InvalidConfigException(
            "migrations",
            List.of(
                new ConfigProblem(
                    "db/migrations",
                    "holds no V<n>__<what>.sql script in "
                        + directory.toAbsolutePath().normalize())));
      }
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (Path script : scripts) {
        sha.update(script.getFileName().toString().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Files.readAllBytes(script));
        sha.update((byte) 0);
      }
      return new MigrationSet(
          scripts.stream().map(p -> p.getFileName().toString()).toList(),
          HexFormat.of().formatHex(sha.digest()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + directory, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }
}
