package dev.protomolt.cdk.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything the local template is synthesized from, reduced to one fingerprint: the compiled CDK
 * classes, the environment file, the migration scripts, the artifacts the environment names and the
 * CDK library itself. The build re-synthesizes exactly when this fingerprint changes, because
 * synthesis starts Node and takes tens of seconds.
 */
public record LocalTemplateInputs(List<Path> roots, String libraryVersion) {

  /** The fingerprint: every regular file under every root, by relative path and content. */
  public String fingerprint() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(libraryVersion.getBytes(StandardCharsets.UTF_8));
      for (Path root : roots) {
        sha.update((byte) 1);
        sha.update(root.toString().getBytes(StandardCharsets.UTF_8));
        for (Path file : files(root)) {
          sha.update((byte) 0);
          sha.update(root.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
          sha.update((byte) 0);
          sha.update(Files.readAllBytes(file));
        }
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the local template's inputs: " + e, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }

  private static List<Path> files(Path root) throws IOException {
    if (Files.isRegularFile(root)) {
      return List.of(root);
    }
    if (!Files.isDirectory(root)) {
      // A missing input is part of the state: creating it later changes the fingerprint.
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".template.json"))
          .sorted()
          .toList();
    }
  }
}
