package dev.protomolt.localstack.s3;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The {@code S3Event} document S3 sends a Lambda function for one created object (event
 * structure version 2.1, as documented in "Event message structure" of the S3 user guide).
 */
public final class S3EventJson {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter EVENT_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** Who S3 says made the request; locally there is one identity, the local access key. */
  static final String LOCAL_PRINCIPAL = "AWS:PROTOMOLTLOCAL";

  private S3EventJson() {}

  /** The event for {@code created}, as the configuration {@code configurationId} delivers it. */
  public static String of(ObjectCreated created, String region, String configurationId) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode record = root.putArray("Records").addObject();
    record.put("eventVersion", "2.1");
    record.put("eventSource", "aws:s3");
    record.put("awsRegion", region);
    record.put("eventTime", EVENT_TIME.format(created.eventTime()));
    record.put("eventName", created.eventName());
    record.putObject("userIdentity").put("principalId", LOCAL_PRINCIPAL);
    record.putObject("requestParameters").put("sourceIPAddress", "127.0.0.1");
    ObjectNode response = record.putObject("responseElements");
    response.put("x-amz-request-id", created.sequencer());
    response.put("x-amz-id-2", "protomolt-local/" + created.sequencer());
    ObjectNode s3 = record.putObject("s3");
    s3.put("s3SchemaVersion", "1.0");
    s3.put("configurationId", configurationId);
    ObjectNode bucket = s3.putObject("bucket");
    bucket.put("name", created.bucket());
    bucket.putObject("ownerIdentity").put("principalId", LOCAL_PRINCIPAL);
    bucket.put("arn", "arn:aws:s3:::" + created.bucket());
    ObjectNode object = s3.putObject("object");
    object.put("key", encodeKey(created.key()));
    object.put("size", created.size());
    object.put("eTag", created.eTag());
    object.put("sequencer", created.sequencer());
    return root.toString();
  }

  /**
   * S3 URL-encodes the key in notifications (a space becomes {@code +}) but keeps the slashes
   * that separate its "folders"; handlers decode it before reading the object.
   */
  static String encodeKey(String key) {
    return Arrays.stream(key.split("/", -1))
        .map(segment -> URLEncoder.encode(segment, StandardCharsets.UTF_8))
        .collect(Collectors.joining("/"));
  }
}
