package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.asl.PayloadTemplate;
import dev.protomolt.localstack.sfn.asl.ReferencePath;

/**
 * Input and output processing in the order AWS documents it: InputPath, then Parameters (or
 * ItemSelector), the state's work, ResultSelector, ResultPath and finally OutputPath.
 */
final class DataFlow {

  private DataFlow() {}

  /** InputPath / OutputPath: {@code $} keeps everything, null gives {@code {}}. */
  static JsonNode select(JsonNode data, String path, JsonNode context, String field) {
    if (path == null) {
      return Json.object();
    }
    if (path.equals("$")) {
      return data;
    }
    return ReferencePath.parse(path).require(data, context, field);
  }

  /** Parameters, ResultSelector, ItemSelector: absent means the data passes unchanged. */
  static JsonNode template(JsonNode template, JsonNode data, JsonNode context) {
    return template == null ? data : PayloadTemplate.of(template).evaluate(data, context);
  }

  /** ResultPath: null discards the result, {@code $} replaces the input, else the result is placed. */
  static JsonNode placeResult(JsonNode rawInput, JsonNode result, String resultPath) {
    if (resultPath == null) {
      return rawInput;
    }
    return ReferencePath.parse(resultPath).put(rawInput, result);
  }
}
