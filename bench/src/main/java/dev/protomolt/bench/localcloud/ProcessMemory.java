package dev.protomolt.bench.localcloud;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Proportional set size (PSS) of a group of processes, from {@code /proc/<pid>/smaps_rollup}.
 * PSS splits shared pages between the processes that share them, so PostgreSQL's shared buffers
 * are counted once across its backends rather than once per backend, as RSS would.
 */
final class ProcessMemory {

  private ProcessMemory() {}

  /** Sum of PSS in bytes of {@code roots} and all their descendants. */
  static long pssBytes(Collection<ProcessHandle> roots) {
    Set<Long> pids = new LinkedHashSet<>();
    for (ProcessHandle root : roots) {
      pids.add(root.pid());
      root.descendants().forEach(p -> pids.add(p.pid()));
    }
    long total = 0;
    for (long pid : pids) {
      total += pssKib(pid) * 1024L;
    }
    return total;
  }

  private static long pssKib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup"))) {
        if (line.startsWith("Pss:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // A process that exited between listing and reading counts as nothing.
    }
    return 0;
  }

  static String mib(long bytes) {
    return String.format("%.0f MiB", bytes / (1024.0 * 1024.0));
  }
}
