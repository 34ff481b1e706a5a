package dev.protomolt.core.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelSource;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructTypeReference;
import dev.cel.extensions.CelExtensions;
import dev.cel.runtime.CelEvaluationException;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one CEL environment every pipeline expression lives in. The graph validator and the runtime
 * both come from the single {@link Cel} instance built here, so an expression the validator
 * accepts is one the runtime compiles: there is no second declaration list to drift.
 *
 * <p>Variables: {@code document} (PipeDoc), {@code metadata} (StreamMetadata), {@code
 * context_params} (map&lt;string, string&gt;, the stream's context parameters) and {@code stream}
 * (PipeStream). The planner runtime is used: it plans a checked AST into a program once, and
 * evaluation then does no parsing or planning.
 */
public final class PipelineCelEnvironment {

  public static final String DOCUMENT = "document";
  public static final String METADATA = "metadata";
  public static final String CONTEXT_PARAMS = "context_params";
  public static final String STREAM = "stream";

  private final Cel cel;
  private final AtomicLong compilations = new AtomicLong();

  private PipelineCelEnvironment(Cel cel) {
    this.cel = cel;
  }

  /** Builds the environment; costly (descriptor walking), so build once per process and share. */
  public static PipelineCelEnvironment create() {
    Cel cel =
        CelFactory.plannerCelBuilder()
            .setOptions(
                CelOptions.current()
                    // Lets authors write metadata.context_params[?'k'].orValue('') for optional
                    // keys.
                    .enableOptionalSyntax(true)
                    // content_length (int64) compared with 1000.0 should just work.
                    .enableHeterogeneousNumericComparisons(true)
                    // A runaway comprehension must not stall a hop.
                    .comprehensionMaxIterations(10_000)
                    .build())
            .addCompilerLibraries(CelExtensions.optional())
            .addRuntimeLibraries(CelExtensions.optional())
            .addMessageTypes(
                PipeDoc.getDescriptor(), StreamMetadata.getDescriptor(), PipeStream.getDescriptor())
            .addVar(DOCUMENT, StructTypeReference.create(PipeDoc.getDescriptor().getFullName()))
            .addVar(
                METADATA, StructTypeReference.create(StreamMetadata.getDescriptor().getFullName()))
            .addVar(CONTEXT_PARAMS, MapType.create(SimpleType.STRING, SimpleType.STRING))
            .addVar(STREAM, StructTypeReference.create(PipeStream.getDescriptor().getFullName()))
            .build();
    return new PipelineCelEnvironment(cel);
  }

  /**
   * Parses and type-checks without planning a program: what validation needs. Returns every
   * problem found, each with its position; empty means the expression compiles.
   */
  public List<CelProblem> check(String expression, ExpressionShape shape) {
    CelValidationResult result = cel.compile(expression);
    if (result.hasError()) {
      return problems(result.getSource(), result.getErrors());
    }
    try {
      CelAbstractSyntaxTree ast = result.getAst();
      return shapeProblems(ast, shape);
    } catch (CelValidationException e) {
      return problems(e.getSource(), e.getErrors());
    }
  }

  /**
   * Compiles one expression into an executable program. This is the only place programs are
   * made, and every call is counted, so a test or benchmark can prove nothing compiles on the hot
   * path after a graph version is loaded.
   */
  public CompiledExpression compile(String key, String expression, ExpressionShape shape) {
    compilations.incrementAndGet();
    CelValidationResult result = cel.compile(expression);
    if (result.hasError()) {
      throw new CelCompilationException(
          key, expression, problems(result.getSource(), result.getErrors()));
    }
    try {
      CelAbstractSyntaxTree ast = result.getAst();
      List<CelProblem> shapeProblems = shapeProblems(ast, shape);
      if (!shapeProblems.isEmpty()) {
        throw new CelCompilationException(key, expression, shapeProblems);
      }
      return new CompiledExpression(key, expression, cel.createProgram(ast));
    } catch (CelValidationException e) {
      throw new CelCompilationException(key, expression, problems(e.getSource(), e.getErrors()));
    } catch (CelEvaluationException e) {
      // Planning failed on a checked AST; report it at the start of the expression.
      throw new CelCompilationException(
          key, expression, List.of(new CelProblem(0, 1, 0, "cannot plan: " + e.getMessage())));
    }
  }

  /** Number of programs compiled by this environment since it was built. */
  public long compilations() {
    return compilations.get();
  }

  private static List<CelProblem> shapeProblems(CelAbstractSyntaxTree ast, ExpressionShape shape) {
    if (shape != ExpressionShape.PREDICATE) {
      return List.of();
    }
    CelKind kind = ast.getResultType().kind();
    if (kind == CelKind.BOOL || kind == CelKind.DYN || kind == CelKind.ERROR) {
      return List.of();
    }
    return List.of(
        new CelProblem(
            0,
            1,
            0,
            "a condition must evaluate to bool, but this one is " + ast.getResultType().name()));
  }

  private static List<CelProblem> problems(CelSource source, List<CelIssue> issues) {
    List<CelProblem> out = new ArrayList<>(issues.size());
    for (CelIssue issue : issues) {
      int line = issue.getSourceLocation().getLine();
      int column = issue.getSourceLocation().getColumn();
      int position =
          source == null
              ? column
              : source.getLocationOffset(issue.getSourceLocation()).orElse(column);
      out.add(new CelProblem(Math.max(position, 0), line, column, issue.getMessage()));
    }
    return List.copyOf(out);
  }
}
