package dev.protomolt.lambda;

import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an event into its {@code aws-lambda-java-events} type with the serializers AWS's Java
 * runtime uses ({@code aws-lambda-java-serialization}: the mixins and date handling those plain
 * types need). A value of the wrong type is refused naming its path in the event, as {@link
 * EventJson} names it ({@code records["t-0"][0].partition}), and the rule the reader broke.
 */
public final class AwsEvents {

  private static final Map<Class<?>, PojoSerializer<?>> SERIALIZERS = new ConcurrentHashMap<>();

  /** One step of the serializer's reference chain: a property, a map key or a list index. */
  private static final Pattern STEP =
      Pattern.compile("->([^\\[>]*)\\[(?:\"((?:[^\"\\\\]|\\\\.)*)\"|(\\d+))\\]");

  private AwsEvents() {}

  /**
   * {@code event} as a {@code type}.
   *
   * @param what what the event must be, for the refusal ("an MSK event")
   */
  public static <T> T read(EventJson json, JsonNode event, Class<T> type, String what) {
    String text;
    try {
      text = EventJson.MAPPER.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw json.refuse("the event", "must be JSON: " + e.getOriginalMessage(), e);
    }
    try {
      return serializer(type).fromJson(text);
    } catch (RuntimeException e) {
      String message = rootMessage(e);
      throw json.refuse(path(message), "must be " + what + ": " + firstLine(message), e);
    }
  }

  @SuppressWarnings("unchecked") // Each entry was created for its own key's class.
  private static <T> PojoSerializer<T> serializer(Class<T> type) {
    return (PojoSerializer<T>)
        SERIALIZERS.computeIfAbsent(
            type, t -> LambdaEventSerializers.serializerFor(t, AwsEvents.class.getClassLoader()));
  }

  /** The path the serializer's reference chain names, or "the event" when it names none. */
  static String path(String message) {
    int chain = message.indexOf("(through reference chain: ");
    if (chain < 0) {
      return "the event";
    }
    StringBuilder path = new StringBuilder();
    Matcher step = STEP.matcher("->" + message.substring(chain + 26));
    while (step.find()) {
      String owner = step.group(1);
      if (step.group(3) != null) {
        path.append('[').append(step.group(3)).append(']');
      } else if (owner.endsWith("Map")) {
        path.append("[\"").append(step.group(2)).append("\"]");
      } else {
        path.append(path.isEmpty() ? "" : ".").append(step.group(2));
      }
    }
    return path.isEmpty() ? "the event" : path.toString();
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  private static String firstLine(String message) {
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
