package dev.protomolt.lambda.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One API Gateway HTTP API request (payload format 2.0), the fields the console reads: method,
 * path split into segments, query parameters, the JSON body and the request context.
 */
record HttpApiRequest(
    String method,
    List<String> segments,
    Map<String, String> query,
    String body,
    JsonNode requestContext) {

  static HttpApiRequest of(JsonNode event) {
    if (!"2.0".equals(event.path("version").asText())) {
      throw ConsoleRefusal.badRequest(
          "version", "must be 2.0 (API Gateway HTTP API payload format 2.0)");
    }
    JsonNode context = event.path("requestContext");
    String method = context.path("http").path("method").asText("");
    if (method.isBlank()) {
      throw ConsoleRefusal.badRequest("requestContext.http.method", "must be set");
    }
    String path = event.path("rawPath").asText("/");
    List<String> segments =
        java.util.Arrays.stream(path.split("/"))
            .filter(s -> !s.isEmpty())
            .map(s -> java.net.URLDecoder.decode(s, StandardCharsets.UTF_8))
            .toList();
    Map<String, String> query = new LinkedHashMap<>();
    event
        .path("queryStringParameters")
        .properties()
        .forEach(e -> query.put(e.getKey(), e.getValue().asText()));
    String body = event.path("body").asText("");
    if (event.path("isBase64Encoded").asBoolean(false) && !body.isEmpty()) {
      body = new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
    }
    return new HttpApiRequest(
        method.toUpperCase(java.util.Locale.ROOT), segments, query, body, context);
  }

  /** A required, non-blank query parameter. */
  String parameter(String name) {
    String value = query.get(name);
    if (value == null || value.isBlank()) {
      throw ConsoleRefusal.badRequest(name, "is a required query parameter");
    }
    return value;
  }

  String parameter(String name, String fallback) {
    String value = query.get(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** The body as one JSON object. */
  JsonNode json(ObjectMapper mapper) {
    if (body.isBlank()) {
      throw ConsoleRefusal.badRequest("body", "must be a JSON object");
    }
    try {
      JsonNode node = mapper.readTree(body);
      if (node == null || !node.isObject()) {
        throw ConsoleRefusal.badRequest("body", "must be a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw ConsoleRefusal.badRequest("body", "must be JSON: " + e.getOriginalMessage());
    }
  }
}
