package dev.protomolt.localstack.template;

/**
 * Where the local stand-ins of managed services listen, for the attributes that name them: the
 * database proxy's and cluster's endpoint are the embedded PostgreSQL's host and port.
 */
public record LocalServices(String postgresHost, int postgresPort) {}
