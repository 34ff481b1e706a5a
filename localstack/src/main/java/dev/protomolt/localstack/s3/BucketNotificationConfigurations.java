package dev.protomolt.localstack.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Each bucket's notification configuration as {@code PutBucketNotificationConfiguration} writes
 * it: the document is kept as written (and answered as it is by {@code
 * GetBucketNotificationConfiguration}), and its Lambda function configurations for {@code
 * s3:ObjectCreated:*} become the notifier's rules for that bucket, replacing those of the document
 * before. Documents are kept under the data folder, so rules survive a restart as they do in S3.
 */
public final class BucketNotificationConfigurations {

  /** What S3 answers for a bucket nobody configured. */
  static final String EMPTY =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          + "<NotificationConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"/>";

  private static final Pattern FUNCTION_ARN =
      Pattern.compile("arn:aws[a-z-]*:lambda:[a-z0-9-]+:\\d{12}:function:([A-Za-z0-9_-]+)(:.+)?");

  /** A refusal S3 would answer with HTTP 400 and this error code. */
  public static final class InvalidConfigurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String code;

    InvalidConfigurationException(String code, String message) {
      super(message);
      this.code = code;
    }

    public String code() {
      return code;
    }
  }

  private final Path dir;
  private final S3Notifier notifier;
  private final Predicate<String> functionExists;
  private final Map<String, String> documents = new HashMap<>();
  private final Map<String, List<S3NotificationRule>> rules = new HashMap<>();

  /**
   * @param dir where each bucket's document is kept ({@code <bucket>.xml})
   * @param functionExists whether a function name is deployed: S3 validates a destination when
   *     the configuration is written
   */
  public BucketNotificationConfigurations(
      Path dir, S3Notifier notifier, Predicate<String> functionExists) {
    this.dir = dir;
    this.notifier = notifier;
    this.functionExists = functionExists;
    try {
      Files.createDirectories(dir);
      try (var files = Files.list(dir)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".xml")).toList()) {
          String bucket = file.getFileName().toString().replaceFirst("\\.xml$", "");
          String xml = Files.readString(file);
          // Written and checked before; the functions are deployed again after the cloud starts.
          apply(bucket, xml, parse(bucket, xml));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the bucket notification configurations " + dir, e);
    }
  }

  /** The document last written for {@code bucket}, or S3's empty one. */
  public synchronized String get(String bucket) {
    return documents.getOrDefault(bucket, EMPTY);
  }

  /**
   * Writes {@code bucket}'s configuration; a document that is not well-formed, names a destination
   * that is not a deployed function, or filters on anything but {@code prefix} and {@code suffix}
   * is refused as S3 refuses it, and nothing changes.
   */
  public synchronized void put(String bucket, String xml) {
    List<S3NotificationRule> next = parse(bucket, xml);
    for (S3NotificationRule rule : next) {
      if (!functionExists.test(rule.functionName())) {
        throw new InvalidConfigurationException(
            "InvalidArgument",
            "Unable to validate the following destination configurations: function "
                + rule.functionName()
                + " does not exist");
      }
    }
    try {
      Files.writeString(dir.resolve(bucket + ".xml"), xml);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the notification configuration of " + bucket, e);
    }
    apply(bucket, xml, next);
  }

  private void apply(String bucket, String xml, List<S3NotificationRule> next) {
    notifier.replaceRules(rules.getOrDefault(bucket, List.of()), next);
    rules.put(bucket, next);
    documents.put(bucket, xml);
  }

  /** The firing rules of a document: its Lambda configurations for objects created. */
  static List<S3NotificationRule> parse(String bucket, String xml) {
    Document doc = document(xml);
    Element root = doc.getDocumentElement();
    if (!"NotificationConfiguration".equals(root.getLocalName())) {
      throw new InvalidConfigurationException(
          "MalformedXML",
          "The XML you provided was not well-formed or did not validate against our published"
              + " schema: the root element must be NotificationConfiguration, got "
              + root.getLocalName());
    }
    List<S3NotificationRule> rules = new ArrayList<>();
    for (Element config : children(root, "CloudFunctionConfiguration")) {
      String arn = text(config, "CloudFunction").orElse("");
      Matcher m = FUNCTION_ARN.matcher(arn);
      if (!m.matches()) {
        throw new InvalidConfigurationException(
            "InvalidArgument",
            "CloudFunction: must be a Lambda function ARN (arn:aws:lambda:<region>:<account>"
                + ":function:<name>[:<qualifier>]), got '"
                + arn
                + "'");
      }
      String prefix = "";
      String suffix = "";
      for (Element filter : children(config, "Filter")) {
        for (Element key : children(filter, "S3Key")) {
          for (Element rule : children(key, "FilterRule")) {
            String name = text(rule, "Name").orElse("");
            String value = text(rule, "Value").orElse("");
            switch (name.toLowerCase(java.util.Locale.ROOT)) {
              case "prefix" -> prefix = value;
              case "suffix" -> suffix = value;
              default ->
                  throw new InvalidConfigurationException(
                      "InvalidArgument",
                      "FilterRule Name: must be prefix or suffix, got '" + name + "'");
            }
          }
        }
      }
      // Only creations are reported locally, and each one of them is reported for any
      // ObjectCreated event: a configuration for other events is kept but never fires.
      boolean created =
          children(config, "Event").stream()
              .map(e -> e.getTextContent().strip())
              .anyMatch("s3:ObjectCreated:*"::equals);
      if (created) {
        rules.add(new S3NotificationRule(bucket, prefix, suffix, m.group(1)));
      }
    }
    return List.copyOf(rules);
  }

  private static Document document(String xml) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return f.newDocumentBuilder()
          .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    } catch (SAXException | IOException e) {
      throw new InvalidConfigurationException(
          "MalformedXML",
          "The XML you provided was not well-formed or did not validate against our published"
              + " schema: "
              + e.getMessage());
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the JDK's XML parser cannot be configured securely", e);
    }
  }

  private static List<Element> children(Element parent, String localName) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && localName.equals(e.getLocalName())) {
        out.add(e);
      }
    }
    return out;
  }

  private static Optional<String> text(Element parent, String localName) {
    return children(parent, localName).stream().findFirst().map(e -> e.getTextContent().strip());
  }
}
