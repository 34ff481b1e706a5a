package dev.protomolt.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Which local files an ingest uploads and under which path: a file by its name, a folder's files
 * (with {@code --recursive}) by their path inside it, as {@code aws s3 cp --recursive} names them.
 * Every path is checked before anything is uploaded, so a typo uploads nothing.
 */
record IngestPlan(List<Item> items) {

  /** One file and the path below {@code <account>/<datasource>/} it is uploaded to. */
  record Item(Path file, String path, long size) {}

  static IngestPlan of(List<Path> paths, boolean recursive) {
    Map<String, Item> byPath = new LinkedHashMap<>();
    for (Path p : paths) {
      if (!Files.exists(p)) {
        throw CommandFailure.refused("PATH: " + p + " does not exist; nothing was uploaded");
      }
      if (Files.isDirectory(p)) {
        if (!recursive) {
          throw CommandFailure.refused(
              "PATH: "
                  + p
                  + " is a directory; pass --recursive to upload"
                  + " the files in it; nothing was uploaded");
        }
        try (Stream<Path> files = Files.walk(p)) {
          for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
            add(
                byPath,
                f,
                p.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/"));
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list " + p + ": " + e.getMessage(), e);
        }
      } else if (Files.isRegularFile(p)) {
        add(byPath, p, p.getFileName().toString());
      } else {
        throw CommandFailure.refused("PATH: " + p + " is not a regular file; nothing was uploaded");
      }
    }
    if (byPath.isEmpty()) {
      throw CommandFailure.refused("PATH: " + paths + " holds no files to upload");
    }
    return new IngestPlan(List.copyOf(new ArrayList<>(byPath.values())));
  }

  private static void add(Map<String, Item> byPath, Path file, String path) {
    Item previous = byPath.get(path);
    if (previous != null && !previous.file().toAbsolutePath().equals(file.toAbsolutePath())) {
      throw CommandFailure.refused(
          "PATH: "
              + previous.file()
              + " and "
              + file
              + " would both be"
              + " uploaded as '"
              + path
              + "', and the second would replace the first; upload them"
              + " separately or from their common folder with --recursive");
    }
    try {
      byPath.put(path, new Item(file, path, Files.size(file)));
    } catch (IOException e) {
      throw CommandFailure.refused("PATH: cannot read " + file + ": " + e.getMessage());
    }
  }

  long bytes() {
    return items.stream().mapToLong(Item::size).sum();
  }
}
