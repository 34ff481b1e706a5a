package dev.protomolt.localstack.iam;

/** A statement's {@code Effect}; AWS accepts exactly these two spellings. */
public enum Effect {
  ALLOW,
  DENY
}
