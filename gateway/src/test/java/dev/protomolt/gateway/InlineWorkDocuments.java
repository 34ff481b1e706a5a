package dev.protomolt.gateway;

import dev.protomolt.core.parts.PartMask;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkDispatch;

/**
 * Serves each dispatch's inline document as it came, for tests whose module only answers no_op
 * and so never needs a result saved (the store's own adapter is tested in StoreWorkDocumentsTest).
 */
final class InlineWorkDocuments implements WorkDocuments {

  @Override
  public HydratedUnit hydrate(WorkDispatch dispatch) {
    return new HydratedUnit(dispatch.getStream(), null, PartMask.ALL, false);
  }

  @Override
  public PipeStream saveResult(WorkDispatch dispatch, HydratedUnit served, PipeDoc processed) {
    throw new UnsupportedOperationException("the module here only answers no_op");
  }
}
