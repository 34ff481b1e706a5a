package dev.protomolt.gateway;

import dev.protomolt.proto.module.v1.WorkDispatch;

/**
 * Decides at pop speed, inside the Hello handler, whether a dispatch is still worth a module's
 * time. Screens must be cheap: they run once per record, ahead of every WorkUnit.
 */
@FunctionalInterface
public interface WorkScreen {

  ScreenVerdict screen(WorkDispatch dispatch);

  /** Runs screens in order; the first drain wins. */
  static WorkScreen allOf(WorkScreen... screens) {
    return dispatch -> {
      for (WorkScreen s : screens) {
        ScreenVerdict v = s.screen(dispatch);
        if (v instanceof ScreenVerdict.Drain) {
          return v;
        }
      }
      return ScreenVerdict.SERVE;
    };
  }
}
