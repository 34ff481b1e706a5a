package dev.protomolt.gateway;

/** {@link WorkUnitLogs#NONE}, which keeps nothing, holds the {@link WorkUnitLogs} contract. */
class NoWorkUnitLogsContractTest extends WorkUnitLogsContract {

  @Override
  protected WorkUnitLogs emptyLogs() {
    return WorkUnitLogs.NONE;
  }
}
