package dev.protomolt.module.samples.parser;

import dev.protomolt.proto.data.v1.Blob;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The formats the sample parser reads, and how a blob is matched to one. */
public enum DocumentFormat {
  PLAIN_TEXT("text", "text/plain", List.of("txt", "text", "log")),
  MARKDOWN("markdown", "text/markdown", List.of("md", "markdown")),
  HTML("html", "text/html", List.of("html", "htm", "xhtml")),
  PDF("pdf", "application/pdf", List.of("pdf"));

  private final String documentType;
  private final String mimeType;
  private final List<String> extensions;

  DocumentFormat(String documentType, String mimeType, List<String> extensions) {
    this.documentType = documentType;
    this.mimeType = mimeType;
    this.extensions = extensions;
  }

  public String documentType() {
    return documentType;
  }

  public String mimeType() {
    return mimeType;
  }

  /** Every mime type this parser accepts, for error messages. */
  public static String supportedMimeTypes() {
    return String.join(", ", Arrays.stream(values()).map(DocumentFormat::mimeType).toList());
  }

  /**
   * The declared mime type wins; a blank or generic one ({@code application/octet-stream}) falls
   * back to the filename's extension and then to the PDF magic number. Empty when the blob
   * declares a type this parser does not read.
   */
  public static Optional<DocumentFormat> of(Blob blob, byte[] bytes) {
    String mime = blob.getMimeType().toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
    if (!mime.isEmpty() && !mime.equals("application/octet-stream")) {
      return switch (mime) {
        case "text/plain" -> Optional.of(PLAIN_TEXT);
        case "text/markdown", "text/x-markdown" -> Optional.of(MARKDOWN);
        case "text/html", "application/xhtml+xml" -> Optional.of(HTML);
        case "application/pdf" -> Optional.of(PDF);
        default -> Optional.empty();
      };
    }
    String name = blob.getFilename().toLowerCase(Locale.ROOT);
    int dot = name.lastIndexOf('.');
    if (dot >= 0) {
      String extension = name.substring(dot + 1);
      for (DocumentFormat format : values()) {
        if (format.extensions.contains(extension)) {
          return Optional.of(format);
        }
      }
    }
    if (bytes.length >= 5 && new String(bytes, 0, 5, StandardCharsets.US_ASCII).equals("%PDF-")) {
      return Optional.of(PDF);
    }
    // Undeclared and unrecognisable bytes are read as text; strict decoding rejects binary.
    return Optional.of(PLAIN_TEXT);
  }
}
