package dev.protomolt.gateway;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkDispatch;

/** Puts a dispatch's document in front of a module and stores what the module made of it. */
public interface WorkDocuments {

  /**
   * The stream with its body: inline as dispatched, or read from the store through the
   * dispatch's part mask (blob bytes only when it needs them).
   *
   * @throws HydrationFailedException when the document cannot be produced
   */
  HydratedUnit hydrate(WorkDispatch dispatch);

  /**
   * The stream Step Functions continues with after a CONTINUE: the processed document saved at
   * the hop's address (only the parts that changed written) and referenced, or inline when it
   * came inline and fits.
   *
   * @throws TaskOutputTooLargeException when an inline result is too large to ride inline and may
   *     not be stored (a right-to-be-forgotten document)
   */
  PipeStream saveResult(WorkDispatch dispatch, HydratedUnit served, PipeDoc processed);
}
