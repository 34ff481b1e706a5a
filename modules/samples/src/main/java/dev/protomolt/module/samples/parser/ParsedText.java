package dev.protomolt.module.samples.parser;

/**
 * What one format reader extracted.
 *
 * @param title the document's own title, blank when it has none
 * @param body the readable text, paragraphs separated by blank lines
 * @param declaredLanguage a language the document declares (HTML {@code lang}), blank otherwise
 * @param pages page count for paged formats, 0 otherwise
 */
public record ParsedText(String title, String body, String declaredLanguage, int pages) {}
