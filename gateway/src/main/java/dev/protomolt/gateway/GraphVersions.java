package dev.protomolt.gateway;

/** Which pinned graph versions still exist; a deleted version can never complete a hop. */
@FunctionalInterface
public interface GraphVersions {

  boolean exists(String graphId, long version);
}
