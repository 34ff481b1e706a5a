package dev.protomolt.module.samples;

import com.google.protobuf.Struct;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.ProcessorFailure;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkUnit;

/** Builds work units for sample processors and runs them the way the worker loop does. */
public final class SampleWork {

  private SampleWork() {}

  public static WorkContext contextFor(PipeDoc document, Struct config) {
    return WorkContext.forUnit(
        WorkUnit.newBuilder()
            .setWorkUnitId("wu-" + document.getDocId())
            .setNodeId("node-1")
            .setGraphId("graph-demo")
            .setGraphVersion(1)
            .setCustomConfig(config)
            .setStream(PipeStream.newBuilder().setDocument(document))
            .build());
  }

  /** The outcome the worker loop would ack: thrown rejects and failures mapped as it maps them. */
  public static ModuleOutcome run(DocumentProcessor processor, PipeDoc document, Struct config) {
    try {
      return processor.process(contextFor(document, config));
    } catch (Exception e) {
      return ProcessorFailure.outcomeOf(e);
    }
  }

  public static ModuleOutcome run(DocumentProcessor processor, PipeDoc document) {
    return run(processor, document, Struct.getDefaultInstance());
  }

  public static PipeDoc updated(ModuleOutcome outcome) {
    if (outcome instanceof ModuleOutcome.Updated(PipeDoc document)) {
      return document;
    }
    throw new AssertionError("expected an Updated outcome, got " + outcome);
  }
}
