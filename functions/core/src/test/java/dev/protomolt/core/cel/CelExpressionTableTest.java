package dev.protomolt.core.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The seeds' expressions, evaluated by the one environment, against one English 1500-char PDF. */
class CelExpressionTableTest {

  private static final PipelineCelEnvironment ENV = PipelineCelEnvironment.create();

  private static final PipeDoc DOC =
      PipeDoc.newBuilder()
          .setDocId("d1")
          .setSearchMetadata(
              SearchMetadata.newBuilder()
                  .setLanguage("en")
                  .setSourceMimeType("application/pdf")
                  .setContentLength(1500))
          .build();

  private static final PipeStream STREAM =
      PipeStream.newBuilder()
          .setStreamId("s1")
          .setMetadata(
              StreamMetadata.newBuilder()
                  .setHopCount(2)
                  .putContextParams("priority", "high")
                  .putContextParams("skip_processing", "false"))
          .build();

  private static final CelInput INPUT = new CelInput(DOC, STREAM);

  static Stream<Arguments> table() {
    return Stream.of(
        Arguments.of("document.search_metadata.language == 'en'", true),
        Arguments.of("document.search_metadata.language == 'de'", false),
        Arguments.of("metadata.context_params['priority'] == 'high'", true),
        Arguments.of("context_params['priority'] == 'high'", true),
        Arguments.of("document.search_metadata.content_length > 1000", true),
        Arguments.of("document.search_metadata.content_length > 100", true),
        Arguments.of("document.search_metadata.content_length > 1000.5", true),
        Arguments.of("document.search_metadata.source_mime_type == 'application/pdf'", true),
        Arguments.of("stream.metadata.context_params['skip_processing'] != 'true'", true),
        Arguments.of("metadata.hop_count < 3", true),
        // A missing key guarded with `in` is simply false.
        Arguments.of(
            "'tenant' in metadata.context_params && metadata.context_params['tenant'] == 'a'",
            false),
        // Optional syntax: a missing key reads as the default.
        Arguments.of("metadata.context_params[?'tenant'].orValue('none') == 'none'", true),
        // An unset message field reads as its default, as in proto3.
        Arguments.of("document.search_metadata.title == ''", true));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("table")
  void evaluates(String expression, boolean expected) {
    CompiledExpression compiled = ENV.compile("edge:t", expression, ExpressionShape.PREDICATE);
    assertThat(compiled.test(INPUT.activation())).isEqualTo(expected);
  }

  @ParameterizedTest(name = "missing key: {0}")
  @MethodSource("missingKeys")
  void missingMapKeyIsALoudFailureNamingTheKey(String expression) {
    CompiledExpression compiled =
        ENV.compile("edge:e-missing", expression, ExpressionShape.PREDICATE);
    assertThatThrownBy(() -> compiled.test(INPUT.activation()))
        .isInstanceOf(CelEvaluationFailure.class)
        .hasMessageContaining("edge:e-missing")
        .hasMessageContaining("tenant");
  }

  static Stream<String> missingKeys() {
    return Stream.of("metadata.context_params['tenant'] == 'a'", "context_params['tenant'] != 'a'");
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        // Unknown field: the checker points at the selection.
        Arguments.of("document.search_metadata.langauge == 'en'", 24, "langauge"),
        // Syntax error: the parser points at the stray token.
        Arguments.of("document.search_metadata.language == ", 37, "mismatched input"),
        // Undeclared variable.
        Arguments.of("doc.language == 'en'", 0, "undeclared reference to 'doc'"),
        // Wrong type comparison.
        Arguments.of(
            "document.search_metadata.content_length > 'big'", 40, "found no matching overload"),
        // A condition must be a bool.
        Arguments.of("document.search_metadata.language", 0, "must evaluate to bool"));
  }

  @ParameterizedTest(name = "{0} rejected at {1}")
  @MethodSource("invalid")
  void invalidExpressionsAreRejectedWithPosition(String expression, int position, String text) {
    assertThat(ENV.check(expression, ExpressionShape.PREDICATE))
        .anySatisfy(
            problem -> {
              assertThat(problem.position()).isEqualTo(position);
              assertThat(problem.message()).contains(text);
            });
    assertThatThrownBy(() -> ENV.compile("edge:bad", expression, ExpressionShape.PREDICATE))
        .isInstanceOf(CelCompilationException.class)
        .hasMessageContaining("edge:bad")
        .hasMessageContaining("at position " + position);
  }
}
