package dev.protomolt.module.samples.parser;

import java.util.Locale;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/** HTML through jsoup: {@code <title>} (else the first h1), visible text with block breaks. */
final class HtmlText {

  private HtmlText() {}

  static ParsedText read(String html, String baseUri) {
    Document document = Jsoup.parse(html, baseUri == null ? "" : baseUri);
    String title = document.title().strip();
    document.select("script, style, noscript, template").remove();
    if (title.isEmpty()) {
      Element h1 = document.selectFirst("h1");
      title = h1 == null ? "" : h1.text().strip();
    }
    StringBuilder text = new StringBuilder();
    NodeTraversor.traverse(new BlockText(text), document.body());
    String lang =
        document.selectFirst("html") == null ? "" : document.selectFirst("html").attr("lang");
    String language =
        lang.isBlank() ? "" : lang.strip().split("[-_]", 2)[0].toLowerCase(Locale.ROOT);
    return new ParsedText(
        PlainText.shorten(title), PlainText.paragraphs(text.toString()), language, 0);
  }

  /** Collects text nodes, breaking lines at block elements so paragraphs stay apart. */
  private record BlockText(StringBuilder out) implements NodeVisitor {
    @Override
    public void head(Node node, int depth) {
      if (node instanceof TextNode textNode) {
        String words = textNode.text();
        if (!words.isBlank()) {
          if (!out.isEmpty()
              && !Character.isWhitespace(out.charAt(out.length() - 1))
              && Character.isWhitespace(words.charAt(0))) {
            out.append(' ');
          }
          out.append(words.strip());
          if (Character.isWhitespace(words.charAt(words.length() - 1))) {
            out.append(' ');
          }
        }
      } else if (node instanceof Element element && element.nameIs("br")) {
        out.append('\n');
      } else if (node instanceof Element element && element.isBlock()) {
        out.append("\n\n");
      }
    }

    @Override
    public void tail(Node node, int depth) {
      if (node instanceof Element element && element.isBlock()) {
        out.append("\n\n");
      }
    }
  }
}
