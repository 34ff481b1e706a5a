package dev.protomolt.module.sdk;

/**
 * The one thing a module author writes: given a hydrated work unit, decide what happens to the
 * document. The worker loop handles streams, heartbeats, back-off and reconnects around it.
 *
 * <p>An implementation may throw: {@link DocumentRejectedException} becomes a typed {@code Reject};
 * any other exception becomes a {@code RetryableFailure} (see {@link ProcessorFailure}). It may be
 * called from several threads at once, one work unit per thread.
 */
@FunctionalInterface
public interface DocumentProcessor {

  ModuleOutcome process(WorkContext work) throws Exception;
}
