package dev.protomolt.guard;

import java.util.ArrayList;
import java.util.List;

/** Formatted correctly, but compiles with an unchecked-conversion warning. */
public final class CompilerWarning {
  @SuppressWarnings("rawtypes")
  private static final List RAW = new ArrayList();

  private CompilerWarning() {}

  public static List<String> names() {
    return RAW;
  }
}
