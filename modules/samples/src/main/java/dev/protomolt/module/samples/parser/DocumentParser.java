package dev.protomolt.module.samples.parser;

import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.ParsedMetadata;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.module.v1.RejectReason;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * The sample parser: reads the document's blob (plain text, Markdown, HTML or PDF) and fills
 * {@code search_metadata} (title, body, language guess, content length, type) plus one {@code
 * parsed_metadata} entry under {@link #PARSER_NAME}. It needs blob content: the gateway must
 * hydrate level 2 for it.
 */
public final class DocumentParser implements DocumentProcessor {

  public static final String PARSER_NAME = "sample-parser";
  public static final String PARSER_VERSION = "1.0";

  private final Clock clock;

  public DocumentParser(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public ModuleOutcome process(WorkContext work) throws DocumentRejectedException {
    PipeDoc document = work.document();
    Blob blob = blobOf(document);
    byte[] bytes = blob.getData().toByteArray();
    if (bytes.length == 0) {
      throw reject(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "blob_bag.blob.data is empty (0 bytes): there is nothing to parse");
    }
    DocumentFormat format =
        DocumentFormat.of(blob, bytes)
            .orElseThrow(
                () ->
                    reject(
                        RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT,
                        "blob_bag.blob.mime_type \""
                            + blob.getMimeType()
                            + "\" is not one this parser reads ("
                            + DocumentFormat.supportedMimeTypes()
                            + ")"));
    String encoding =
        blob.getEncoding().isBlank() ? charsetParameter(blob.getMimeType()) : blob.getEncoding();
    ParsedText parsed =
        switch (format) {
          case PLAIN_TEXT -> PlainText.read(TextDecoding.decode(bytes, encoding));
          case MARKDOWN -> MarkdownText.read(TextDecoding.decode(bytes, encoding));
          case HTML ->
              HtmlText.read(
                  TextDecoding.decode(bytes, encoding),
                  document.getSearchMetadata().getSourceUri());
          case PDF -> PdfText.read(bytes);
        };
    if (parsed.body().isBlank()) {
      throw reject(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "blob_bag.blob.data ("
              + format.documentType()
              + ", "
              + bytes.length
              + " bytes) holds no readable text");
    }

    String titleSource = "document";
    String title = parsed.title();
    if (title.isBlank()) {
      title = filenameTitle(blob.getFilename());
      titleSource = title.isBlank() ? "none" : "filename";
    }
    String language = parsed.declaredLanguage();
    String languageSource = "declared";
    if (language.isBlank()) {
      language = LanguageGuess.guess(parsed.body());
      languageSource = language.isBlank() ? "unknown" : "guessed";
    }
    long characters = parsed.body().codePointCount(0, parsed.body().length());
    Instant now = clock.instant();

    SearchMetadata.Builder search =
        document.getSearchMetadata().toBuilder()
            .setTitle(title)
            .setBody(parsed.body())
            .setLanguage(language)
            .setContentLength(characters)
            .setDocumentType(format.documentType())
            .setSourceMimeType(format.mimeType())
            .setProcessedDate(timestamp(now));
    Struct.Builder data =
        Struct.newBuilder()
            .putFields("format", string(format.documentType()))
            .putFields("mime_type", string(format.mimeType()))
            .putFields("bytes", number(bytes.length))
            .putFields("characters", number(characters))
            .putFields("words", number(parsed.body().split("\\s+").length))
            .putFields("title_source", string(titleSource))
            .putFields("language_source", string(languageSource));
    if (format == DocumentFormat.PDF) {
      data.putFields("pages", number(parsed.pages()));
    }
    ParsedMetadata metadata =
        ParsedMetadata.newBuilder()
            .setParserName(PARSER_NAME)
            .setParserVersion(PARSER_VERSION)
            .setData(data)
            .setParsedAt(timestamp(now))
            .build();
    work.log(
        "parsed "
            + format.documentType()
            + ": "
            + characters
            + " characters, language "
            + (language.isBlank() ? "unknown" : language));
    return ModuleOutcome.updated(
        document.toBuilder()
            .setSearchMetadata(search)
            .putParsedMetadata(PARSER_NAME, metadata)
            .build());
  }

  private static Blob blobOf(PipeDoc document) throws DocumentRejectedException {
    if (!document.hasBlobBag()) {
      throw reject(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "blob_bag is missing: the parser needs the document's source bytes");
    }
    Blob blob =
        switch (document.getBlobBag().getBlobDataCase()) {
          case BLOB -> document.getBlobBag().getBlob();
          case BLOBS -> {
            int count = document.getBlobBag().getBlobs().getBlobCount();
            if (count != 1) {
              throw reject(
                  RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT,
                  "blob_bag.blobs holds "
                      + count
                      + " blobs; this parser reads exactly one per document");
            }
            yield document.getBlobBag().getBlobs().getBlob(0);
          }
          case BLOBDATA_NOT_SET ->
              throw reject(RejectReason.REJECT_REASON_INVALID_INPUT, "blob_bag holds no blob");
        };
    if (blob.getContentCase() == Blob.ContentCase.STORAGE_REF) {
      throw reject(
          RejectReason.REJECT_REASON_HYDRATION_FAILED,
          "blob_bag.blob has only a storage_ref ("
              + blob.getStorageRef().getObjectKey()
              + "): the parser needs the bytes inline, so its node must declare"
              + " needs_blob_content");
    }
    return blob;
  }

  /** The {@code charset=} parameter of a mime type ("text/plain; charset=ISO-8859-1"), or blank. */
  private static String charsetParameter(String mimeType) {
    for (String part : mimeType.split(";")) {
      String[] pair = part.strip().split("=", 2);
      if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
        return pair[1].strip().replace("\"", "");
      }
    }
    return "";
  }

  private static String filenameTitle(String filename) {
    String name = filename.replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    return (dot > 0 ? name.substring(0, dot) : name).strip();
  }

  private static DocumentRejectedException reject(RejectReason reason, String detail) {
    return new DocumentRejectedException(reason, detail);
  }

  private static Value string(String text) {
    return Value.newBuilder().setStringValue(text).build();
  }

  private static Value number(double number) {
    return Value.newBuilder().setNumberValue(number).build();
  }

  private static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }
}
