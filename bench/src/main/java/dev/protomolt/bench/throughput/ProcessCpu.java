package dev.protomolt.bench.throughput;

import java.lang.management.ManagementFactory;

/** This JVM's CPU time: every thread, the platform's and the modules' alike, plus GC and JIT. */
final class ProcessCpu {

  private ProcessCpu() {}

  static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    throw new IllegalStateException("this JVM does not report its process CPU time");
  }
}
