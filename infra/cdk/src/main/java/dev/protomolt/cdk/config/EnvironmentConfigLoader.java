package dev.protomolt.cdk.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads {@code config/<env>.json} into an {@link EnvironmentConfig} and validates it. */
public final class EnvironmentConfigLoader {

  // Unknown keys are errors: a misspelt setting must not silently fall back to nothing.
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private EnvironmentConfigLoader() {}

  /** Loads the configuration of environment {@code env} from {@code configDir/<env>.json}. */
  public static EnvironmentConfig load(Path configDir, String env) {
    if (env == null || env.isBlank()) {
      throw new InvalidConfigException(
          "context 'env'",
          List.of(
              new ConfigProblem(
                  "env",
                  "is required: run cdk with -c env=<name>, one of " + available(configDir))));
    }
    Path file = configDir.resolve(env + ".json");
    if (!Files.isRegularFile(file)) {
      throw new InvalidConfigException(
          "context 'env'",
          List.of(
              new ConfigProblem(
                  "env",
                  "no file "
                      + file
                      + " for environment '"
                      + env
                      + "'; known: "
                      + available(configDir))));
    }
    EnvironmentConfig config = parse(file);
    if (config.name() != null && !config.name().equals(env)) {
      throw new InvalidConfigException(
          file.toString(),
          List.of(
              new ConfigProblem(
                  "name",
                  "must equal the file's environment '"
                      + env
                      + "' (got '"
                      + config.name()
                      + "')")));
    }
    return config;
  }

  /** Parses and validates one file, naming the file and every problem on failure. */
  public static EnvironmentConfig parse(Path file) {
    EnvironmentConfig config;
    try {
      config = JSON.readValue(file.toFile(), EnvironmentConfig.class);
    } catch (UnrecognizedPropertyException e) {
      throw new InvalidConfigException(
          file.toString(),
          List.of(
              new ConfigProblem(
                  path(e), "is not a known setting; known here: " + e.getKnownPropertyIds())));
    } catch (JacksonException e) {
      throw new InvalidConfigException(
          file.toString(),
          List.of(new ConfigProblem(path(e), "cannot be read: " + e.getOriginalMessage())));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
    if (config == null) {
      throw new InvalidConfigException(
          file.toString(), List.of(new ConfigProblem("$", "the file is empty")));
    }
    return EnvironmentConfigValidator.requireValid(file.toString(), config);
  }

  private static String path(JacksonException e) {
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      StringBuilder out = new StringBuilder();
      for (var ref : m.getPath()) {
        if (ref.getFieldName() != null) {
          out.append(out.isEmpty() ? "" : ".").append(ref.getFieldName());
        } else {
          out.append('[').append(ref.getIndex()).append(']');
        }
      }
      return out.toString();
    }
    return "$";
  }

  private static List<String> available(Path configDir) {
    try (var files = Files.list(configDir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".json"))
          .map(n -> n.substring(0, n.length() - ".json".length()))
          .sorted()
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
