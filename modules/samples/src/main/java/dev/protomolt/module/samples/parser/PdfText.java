package dev.protomolt.module.samples.parser;

import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.proto.module.v1.RejectReason;
import java.io.IOException;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.text.PDFTextStripper;

/** PDF through Apache PDFBox: the text layer, the info dictionary's title, the page count. */
final class PdfText {

  private PdfText() {}

  static ParsedText read(byte[] bytes) throws DocumentRejectedException {
    try (PDDocument document = Loader.loadPDF(bytes)) {
      PDFTextStripper stripper = new PDFTextStripper();
      stripper.setSortByPosition(true);
      String body = PlainText.paragraphs(stripper.getText(document));
      int pages = document.getNumberOfPages();
      if (body.isBlank()) {
        throw new DocumentRejectedException(
            RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT,
            "blob_bag.blob.data is a PDF of "
                + pages
                + " page(s) with no text layer (a scan needs OCR, which this parser does not do)");
      }
      String infoTitle = document.getDocumentInformation().getTitle();
      String title =
          infoTitle == null || infoTitle.isBlank() ? "" : PlainText.shorten(infoTitle.strip());
      return new ParsedText(title, body, "", pages);
    } catch (InvalidPasswordException e) {
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT,
          "blob_bag.blob.data is a password-protected PDF; this parser cannot open it",
          e);
    } catch (IOException e) {
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "blob_bag.blob.data is not a readable PDF: " + e.getMessage(),
          e);
    }
  }
}
