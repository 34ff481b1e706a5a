package dev.protomolt.module.samples.parser;

import static dev.protomolt.module.samples.SampleWork.run;
import static dev.protomolt.module.samples.SampleWork.updated;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.module.v1.RejectReason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;

class DocumentParserTest {

  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private final DocumentParser parser = new DocumentParser(Clock.fixed(NOW, ZoneOffset.UTC));

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = DocumentParserTest.class.getResourceAsStream("/samples/" + name)) {
      return in.readAllBytes();
    }
  }

  private static PipeDoc docWith(byte[] bytes, String mimeType, String filename) {
    return PipeDoc.newBuilder()
        .setDocId("doc-" + filename)
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setBlobId("b1")
                        .setData(ByteString.copyFrom(bytes))
                        .setMimeType(mimeType)
                        .setFilename(filename)))
        .build();
  }

  private static ModuleOutcome.Reject rejected(ModuleOutcome outcome) {
    assertThat(outcome).isInstanceOf(ModuleOutcome.Reject.class);
    return (ModuleOutcome.Reject) outcome;
  }

  @Test
  void plainTextGetsTitleBodyLanguageAndLength() throws IOException {
    PipeDoc parsed =
        updated(
            run(parser, docWith(resource("harbour-notes.txt"), "text/plain", "harbour-notes.txt")));
    var search = parsed.getSearchMetadata();
    assertThat(search.getTitle()).isEqualTo("Harbour maintenance notes");
    assertThat(search.getBody()).contains("north breakwater").contains("\n\nThe fuel pier");
    assertThat(search.getLanguage()).isEqualTo("en");
    assertThat(search.getContentLength()).isEqualTo(search.getBody().length());
    assertThat(search.getDocumentType()).isEqualTo("text");
    var metadata = parsed.getParsedMetadataOrThrow(DocumentParser.PARSER_NAME);
    assertThat(metadata.getParserVersion()).isEqualTo(DocumentParser.PARSER_VERSION);
    assertThat(metadata.getParsedAt().getSeconds()).isEqualTo(NOW.getEpochSecond());
    assertThat(metadata.getData().getFieldsOrThrow("language_source").getStringValue())
        .isEqualTo("guessed");
    // The source bytes stay with the document: parsing adds, it never drops.
    assertThat(parsed.getBlobBag().getBlob().getData().size()).isPositive();
  }

  @Test
  void markdownLosesItsMarkupButKeepsItsWordsAndCode() throws IOException {
    PipeDoc parsed =
        updated(run(parser, docWith(resource("tide-tables.md"), "", "tide-tables.md")));
    var search = parsed.getSearchMetadata();
    assertThat(search.getTitle()).isEqualTo("Reading tide tables");
    assertThat(search.getBody())
        .contains("give the time and height of each", "reference port. Heights", "HW 06:12  4.8 m")
        .contains("Look up the time difference", "Always allow a margin")
        .doesNotContain("**", "](", "```", "# ");
    assertThat(search.getDocumentType()).isEqualTo("markdown");
    assertThat(search.getSourceMimeType()).isEqualTo("text/markdown");
  }

  @Test
  void htmlUsesItsTitleDeclaredLanguageAndVisibleText() throws IOException {
    PipeDoc parsed =
        updated(
            run(
                parser,
                docWith(resource("lighthouse.html"), "text/html; charset=utf-8", "log.html")));
    var search = parsed.getSearchMetadata();
    assertThat(search.getTitle()).isEqualTo("The lighthouse keeper's log");
    assertThat(search.getLanguage()).isEqualTo("en");
    assertThat(search.getBody())
        .contains("Keeper's log", "The lamp was lit at dusk", "at two in the morning; it was")
        .contains("Oil delivered")
        .doesNotContain("console.log", "font-family");
    assertThat(search.getBody()).contains("four.\n\nA fishing boat");
    assertThat(
            parsed
                .getParsedMetadataOrThrow(DocumentParser.PARSER_NAME)
                .getData()
                .getFieldsOrThrow("language_source")
                .getStringValue())
        .isEqualTo("declared");
  }

  @Test
  void pdfTextLayerTitleAndPagesComeThroughPdfBox() throws IOException {
    byte[] pdf =
        pdf(
            "Survey of the outer harbour",
            "The survey found the channel clear to a depth of nine metres.",
            "The second page lists the buoys that were repainted this year.");
    PipeDoc parsed = updated(run(parser, docWith(pdf, "application/pdf", "survey.pdf")));
    var search = parsed.getSearchMetadata();
    assertThat(search.getTitle()).isEqualTo("Survey of the outer harbour");
    assertThat(search.getBody()).contains("channel clear to a depth", "buoys that were repainted");
    assertThat(search.getLanguage()).isEqualTo("en");
    var data = parsed.getParsedMetadataOrThrow(DocumentParser.PARSER_NAME).getData();
    assertThat(data.getFieldsOrThrow("pages").getNumberValue()).isEqualTo(2);
    assertThat(data.getFieldsOrThrow("format").getStringValue()).isEqualTo("pdf");
  }

  @Test
  void pdfIsRecognisedByItsMagicNumberWhenUndeclared() throws IOException {
    byte[] pdf = pdf("", "Only one page of text here for the parser to find.");
    PipeDoc parsed = updated(run(parser, docWith(pdf, "application/octet-stream", "upload.bin")));
    assertThat(parsed.getSearchMetadata().getDocumentType()).isEqualTo("pdf");
    // No info title: the filename stands in.
    assertThat(parsed.getSearchMetadata().getTitle()).isEqualTo("upload");
  }

  @Test
  void aCorruptPdfIsRejectedAsInvalidInput() {
    var reject =
        rejected(
            run(
                parser,
                docWith("%PDF-1.7\nthis is not a pdf".getBytes(), "application/pdf", "bad.pdf")));
    assertThat(reject.reason()).isEqualTo(RejectReason.REJECT_REASON_INVALID_INPUT);
    assertThat(reject.detail()).startsWith("blob_bag.blob.data is not a readable PDF");
  }

  @Test
  void aPasswordProtectedPdfIsRejectedAsUnsupported() throws IOException {
    byte[] locked;
    try (PDDocument document = new PDDocument()) {
      page(document, "secret text");
      StandardProtectionPolicy policy =
          new StandardProtectionPolicy("owner-pw", "user-pw", new AccessPermission());
      document.protect(policy);
      locked = save(document);
    }
    var reject = rejected(run(parser, docWith(locked, "application/pdf", "locked.pdf")));
    assertThat(reject.reason()).isEqualTo(RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT);
    assertThat(reject.detail()).contains("password-protected PDF");
  }

  @Test
  void aPdfWithoutTextIsRejectedNamingTheMissingTextLayer() throws IOException {
    byte[] blank;
    try (PDDocument document = new PDDocument()) {
      document.addPage(new PDPage());
      blank = save(document);
    }
    var reject = rejected(run(parser, docWith(blank, "application/pdf", "scan.pdf")));
    assertThat(reject.reason()).isEqualTo(RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT);
    assertThat(reject.detail()).contains("1 page(s) with no text layer");
  }

  @Test
  void textThatIsNotUtf8IsRejectedAtItsByteOffset() {
    byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9, ' ', 'n', 'o', 'i', 'r'};
    var reject = rejected(run(parser, docWith(latin1, "text/plain", "menu.txt")));
    assertThat(reject.reason()).isEqualTo(RejectReason.REJECT_REASON_INVALID_INPUT);
    assertThat(reject.detail())
        .isEqualTo(
            "blob_bag.blob.data is not valid UTF-8 at byte offset 3 (set blob.encoding if the text"
                + " uses another charset)");

    // Declaring the charset makes the same bytes readable.
    PipeDoc declared = docWith(latin1, "text/plain", "menu.txt");
    declared =
        declared.toBuilder()
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(declared.getBlobBag().getBlob().toBuilder().setEncoding("ISO-8859-1")))
            .build();
    assertThat(updated(run(parser, declared)).getSearchMetadata().getBody()).isEqualTo("café noir");
    PipeDoc viaMimeType = docWith(latin1, "text/plain; charset=ISO-8859-1", "menu.txt");
    assertThat(updated(run(parser, viaMimeType)).getSearchMetadata().getBody())
        .isEqualTo("café noir");
  }

  @Test
  void anUnsupportedMimeTypeIsRejectedNamingTheType() {
    var reject = rejected(run(parser, docWith(new byte[] {1, 2, 3}, "image/png", "photo.png")));
    assertThat(reject.reason()).isEqualTo(RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT);
    assertThat(reject.detail())
        .startsWith("blob_bag.blob.mime_type \"image/png\" is not one this parser reads")
        .contains("application/pdf");
  }

  @Test
  void missingEmptyOrUnhydratedBlobsAreRejectedNamingTheField() {
    var missing = rejected(run(parser, PipeDoc.newBuilder().setDocId("d").build()));
    assertThat(missing.detail()).startsWith("blob_bag is missing");

    var empty = rejected(run(parser, docWith(new byte[0], "text/plain", "empty.txt")));
    assertThat(empty.detail()).startsWith("blob_bag.blob.data is empty (0 bytes)");

    var blank = rejected(run(parser, docWith("  \n\n ".getBytes(), "text/plain", "blank.txt")));
    assertThat(blank.detail()).contains("holds no readable text");

    PipeDoc unhydrated =
        PipeDoc.newBuilder()
            .setDocId("d")
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(
                        Blob.newBuilder()
                            .setStorageRef(
                                FileStorageReference.newBuilder().setObjectKey("intake/a.pdf"))))
            .build();
    var reference = rejected(run(parser, unhydrated));
    assertThat(reference.reason()).isEqualTo(RejectReason.REJECT_REASON_HYDRATION_FAILED);
    assertThat(reference.detail()).contains("needs_blob_content", "intake/a.pdf");
  }

  @Test
  void languageGuessNamesAClearWinnerAndOtherwiseStaysBlank() {
    assertThat(
            LanguageGuess.guess(
                "Der Hafen ist nicht groß, aber die Einfahrt ist auch bei Sturm sicher und der"
                    + " Leuchtturm steht auf dem Felsen."))
        .isEqualTo("de");
    assertThat(
            LanguageGuess.guess("Le port est petit et les bateaux sont dans la baie pour la nuit."))
        .isEqualTo("fr");
    assertThat(LanguageGuess.guess("HW 06:12 LW 12:30")).isEmpty();
  }

  static byte[] pdf(String title, String... pages) throws IOException {
    try (PDDocument document = new PDDocument()) {
      if (!title.isEmpty()) {
        document.getDocumentInformation().setTitle(title);
      }
      for (String text : pages) {
        page(document, text);
      }
      return save(document);
    }
  }

  private static void page(PDDocument document, String text) throws IOException {
    PDPage page = new PDPage();
    document.addPage(page);
    try (PDPageContentStream content = new PDPageContentStream(document, page)) {
      content.beginText();
      content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
      content.newLineAtOffset(72, 700);
      content.showText(text);
      content.endText();
    }
  }

  private static byte[] save(PDDocument document) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    document.save(out);
    return out.toByteArray();
  }
}
